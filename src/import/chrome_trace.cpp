#include "import/chrome_trace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "base/json_cursor.h"
#include "import/cpuprofile.h"
#include "import/v8_profile.h"

namespace webprof {
namespace {

// A pid, tid or numeric id as an integer; one past ±2^53 (not a real id)
// becomes 0 rather than an out-of-range conversion.
int64_t Whole(double v) {
  return std::fabs(v) <= 9007199254740992.0 ? static_cast<int64_t>(v) : 0;
}

// One profile being read: its events may be anywhere in the trace.
struct Pending {
  int64_t pid = 0, tid = 0;
  std::string id;
  bool has_profile = false;  // its Profile (or CpuProfile) event was seen
  RawCpuProfile p;
  std::vector<int64_t> deltas;  // every chunk's, in order
};

// What an event says about itself before its args are read.
struct EventHead {
  std::string_view name, ph;
  int64_t pid = 0, tid = 0;
  std::string id;
  size_t args = 0;  // offset of the args value; 0: none
};

class Reader {
 public:
  Reader(std::string_view text, std::string* error)
      : text_(text), c_(text), error_(error) {}

  bool Run() {
    if (c_.Peek() == JsonCursor::Type::kArray) {
      if (!Events(c_)) return false;
    } else {
      bool found = false;
      if (!c_.BeginObject()) return Fail(c_);
      std::string key;
      while (c_.NextKey(&key)) {
        if (key == "traceEvents" && !found) {
          if (!Events(c_)) return false;
          found = true;
        } else if (!c_.Skip()) {
          return Fail(c_);
        }
      }
      if (!c_.ok()) return Fail(c_);
      if (!found) return Say("no \"traceEvents\" member");
    }
    if (!c_.AtEnd()) return Fail(c_);
    return Finish();
  }

  uint32_t events() const { return events_; }
  std::vector<std::unique_ptr<Pending>>& profiles() { return profiles_; }

 private:
  bool Fail(JsonCursor& c) { return Say(c.error()); }
  bool Say(std::string what) {
    if (error_->empty()) *error_ = std::move(what);
    return false;
  }

  bool Events(JsonCursor& c) {
    if (!c.BeginArray()) return Fail(c);
    while (c.NextElement()) {
      EventHead e;
      if (!Head(c, &e)) return Fail(c);
      ++events_;
      if (e.args && (e.name == "Profile" || e.name == "ProfileChunk" ||
                     e.name == "CpuProfile")) {
        if (!ProfileEvent(e)) return false;
      }
    }
    return c.ok() || Fail(c);
  }

  bool Head(JsonCursor& c, EventHead* e) {
    if (!c.BeginObject()) return false;
    std::string_view key;
    while (c.NextKey(&key, &key_scratch_)) {
      bool ok;
      if (key == "name" || key == "ph") {
        ok = c.String(key == "ph" ? &e->ph : &e->name, &scratch_);
        if (ok && e->name.data() == scratch_.data()) e->name = "";  // escaped
      } else if ((key == "pid" || key == "tid") &&
                 c.Peek() == JsonCursor::Type::kNumber) {
        double v;
        ok = c.Number(&v);
        (key == "pid" ? e->pid : e->tid) = Whole(v);
      } else if (key == "id" && c.Peek() == JsonCursor::Type::kString) {
        ok = c.String(&e->id);
      } else if (key == "id" && c.Peek() == JsonCursor::Type::kNumber) {
        double v;
        ok = c.Number(&v);
        e->id = std::to_string(Whole(v));
      } else {
        if (key == "args") e->args = c.Offset();
        ok = c.Skip();
      }
      if (!ok) return false;
    }
    return c.ok();
  }

  Pending& ProfileOf(const EventHead& e) {
    auto key = std::make_pair(e.pid, e.id);
    auto it = by_key_.find(key);
    if (it != by_key_.end()) return *profiles_[it->second];
    by_key_.emplace(key, profiles_.size());
    profiles_.push_back(std::make_unique<Pending>());
    Pending& p = *profiles_.back();
    p.pid = e.pid;
    p.id = e.id;
    return p;
  }

  std::string Where(const EventHead& e) const {
    return std::string(e.name) + " event of profile " + e.id + " (pid " +
           std::to_string(e.pid) + ") at byte " + std::to_string(e.args);
  }

  // The args of a profile event: read with a cursor of their own (offsets
  // stay the text's), after the event's name is known.
  bool ProfileEvent(const EventHead& e) {
    JsonCursor c(text_);
    c.Seek(e.args);
    Pending& p = ProfileOf(e);
    std::string inner;
    bool ok = c.BeginObject();
    std::string key;
    while (ok && c.NextKey(&key)) {
      if (key != "data") {
        ok = c.Skip();
        continue;
      }
      ok = e.name == "CpuProfile" ? CpuProfileData(c, e, &p, &inner)
                                  : Data(c, e, &p, &inner);
    }
    if (ok && c.ok()) return true;
    return Say(Where(e) + ": " + (inner.empty() ? c.error() : inner));
  }

  bool Data(JsonCursor& c, const EventHead& e, Pending* p, std::string* err) {
    if (!c.BeginObject()) return false;
    size_t samples_before = p->p.samples.nodes.size(), deltas = 0;
    bool has_deltas = false;
    std::string key;
    while (c.NextKey(&key)) {
      bool ok = true;
      if (key == "startTime" && e.name == "Profile") {
        ok = c.Number(&p->p.start_us);
        p->has_profile = true;
        p->tid = e.tid;
      } else if (key == "endTime") {
        ok = c.Number(&p->p.end_us);
      } else if (key == "timeDeltas") {
        size_t before = p->deltas.size();
        ok = ReadIntArray(c, &p->deltas);
        deltas = p->deltas.size() - before;
        has_deltas = true;
      } else if (key == "cpuProfile" && e.name == "ProfileChunk") {
        ok = c.BeginObject();
        while (ok && c.NextKey(&key)) {
          if (key == "nodes") {
            ok = c.BeginArray();
            while (ok && c.NextElement()) ok = p->p.tree.ReadNode(c, err);
          } else if (key == "samples") {
            ok = ReadIntArray(c, &p->p.samples.nodes);
          } else if (key == "endTime") {
            ok = c.Number(&p->p.end_us);
          } else {
            ok = c.Skip();
          }
        }
      } else {
        ok = c.Skip();
      }
      if (!ok) return false;
    }
    if (!c.ok()) return false;
    size_t samples = p->p.samples.nodes.size() - samples_before;
    if (e.name == "Profile" && !p->has_profile) {
      *err = "no data.startTime";
      return false;
    }
    if (samples != deltas && (samples || has_deltas)) {
      *err = std::to_string(samples) + " samples but " +
             std::to_string(deltas) + " timeDeltas";
      return false;
    }
    return true;
  }

  bool CpuProfileData(JsonCursor& c, const EventHead& e, Pending* p,
                      std::string* err) {
    if (!c.BeginObject()) return false;
    std::string key;
    while (c.NextKey(&key)) {
      if (key != "cpuProfile") {
        if (!c.Skip()) return false;
        continue;
      }
      if (p->has_profile) {
        *err = "a second CpuProfile event of the same profile";
        return false;
      }
      if (!ReadCpuProfile(c, &p->p, err)) return false;
      p->has_profile = true;
      p->tid = e.tid;
    }
    return c.ok();
  }

  bool Finish() {
    for (auto& pending : profiles_) {
      Pending& p = *pending;
      std::string what =
          "profile " + p.id + " (pid " + std::to_string(p.pid) + "): ";
      if (!p.has_profile)
        return Say(what + "ProfileChunk events without its Profile event");
      if (!p.deltas.empty() || p.p.samples.times_us.empty())
        AddDeltas(p.p.start_us, p.deltas, &p.p.samples.times_us);
      std::string err;
      if (!p.p.tree.Validate(&err) ||
          !CheckSamples(p.p.tree, p.p.samples.nodes, &err))
        return Say(what + err);
    }
    return true;
  }

  std::string_view text_;
  JsonCursor c_;
  std::string* error_;
  std::string scratch_, key_scratch_;
  uint32_t events_ = 0;
  std::vector<std::unique_ptr<Pending>> profiles_;
  std::map<std::pair<int64_t, std::string>, size_t> by_key_;
};

double MedianIntervalMs(const std::vector<double>& times_us) {
  std::vector<double> d;
  for (size_t i = 1; i < times_us.size(); ++i)
    d.push_back(std::max(0.0, times_us[i] - times_us[i - 1]));
  if (d.empty()) return 0;
  std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
  return d[d.size() / 2] / 1000;
}

}  // namespace

bool IsChromeTrace(std::string_view text) {
  JsonCursor c(text.substr(0, 64));
  if (c.Peek() == JsonCursor::Type::kArray) return true;
  std::string key;
  return c.BeginObject() && c.NextKey(&key) && key == "traceEvents";
}

Status ImportChromeTrace(std::string_view json,
                         const ChromeTraceImportOptions& options,
                         std::vector<ChromeTraceProfile>* out,
                         ChromeTraceImportInfo* info, std::string* error) {
  *info = ChromeTraceImportInfo{};
  error->clear();
  Reader r(json, error);
  if (!r.Run()) {
    *error = "Chrome trace: " + *error;
    return Status::kMalformedProfile;
  }
  info->events = r.events();
  if (r.profiles().empty()) {
    *error =
        "Chrome trace: no V8 CPU profile in it (no Profile/ProfileChunk or "
        "CpuProfile event: record with the disabled-by-default-v8.cpu_profiler "
        "category)";
    return Status::kNoProfileThread;
  }
  double origin = options.time_origin_us;
  if (!std::isfinite(origin)) {
    origin = std::numeric_limits<double>::infinity();
    for (auto& p : r.profiles()) {
      origin = std::min(origin, p->p.start_us);
      for (double t : p->p.samples.times_us) origin = std::min(origin, t);
    }
  }
  info->time_origin_us = origin;
  for (auto& pending : r.profiles()) {
    RawCpuProfile& p = pending->p;
    ChromeTraceProfile prof;
    prof.pid = pending->pid;
    prof.tid = pending->tid;
    prof.id = pending->id;
    prof.session = std::make_unique<Session>(SessionOptions{
        MedianIntervalMs(p.samples.times_us), options.max_buffer_size, 0});
    p.tree.Intern(&prof.session->trace());
    prof.samples = AppendSamples(p.tree, p.samples, origin,
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::infinity(),
                                 prof.session.get(), &prof.truncated);
    if (std::isfinite(p.end_us) && p.end_us >= origin)
      prof.end_ms = (p.end_us - origin) / 1000;
    out->push_back(std::move(prof));
  }
  return Status::kOk;
}

}  // namespace webprof
