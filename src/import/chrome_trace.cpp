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
  ChromeTraceRawProfile raw;
  bool has_profile = false;     // its Profile (or CpuProfile) event was seen
  std::vector<int64_t> deltas;  // every chunk's, in order
};

// One Profile/ProfileChunk event's args.data as read: where p's tables
// stood before it (nodes, samples, deltas were appended to them) and the
// rest, applied by Commit().
struct DataRead {
  Pending* p = nullptr;
  V8NodeTree::Mark nodes{0, 0};
  size_t samples = 0, deltas = 0;
  double start_us = 0, end_us = 0;
  bool has_start = false, has_end = false, has_deltas = false;
  bool cpu_profile = false;  // it has a cpuProfile member
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
      DataRead ahead;  // args read before the name was known (ReadAhead)
      if (!Head(c, &e, &ahead)) return Fail(c);
      ++events_;
      const bool profile =
          e.args && (e.name == "Profile" || e.name == "ProfileChunk" ||
                     e.name == "CpuProfile");
      if (ahead.p) {
        std::string unused;
        if (profile && e.name != "CpuProfile" && ahead.p == &ProfileOf(e) &&
            (e.name == "ProfileChunk" || !ahead.cpu_profile) &&
            Commit(e, ahead, &unused)) {
          last_ = ahead.p;
          continue;
        }
        Undo(ahead);
      }
      if (profile && !ProfileEvent(e)) return false;
    }
    return c.ok() || Fail(c);
  }

  bool Head(JsonCursor& c, EventHead* e, DataRead* ahead) {
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
      } else if (key == "args") {
        e->args = c.Offset();
        if (ahead->p) Undo(*ahead);  // a second args member
        size_t end;
        ok = ReadAhead(e->args, ahead, &end) ? (c.Seek(end), true) : c.Skip();
      } else {
        ok = c.Skip();
      }
      if (!ok) return false;
    }
    return c.ok();
  }

  // DevTools writes an event's args before its name: rather than skip a
  // profile chunk and read it again once the name is known, its args are
  // read as profile data into the profile the last profile event went to,
  // and taken back (Undo) when the event turns out to be another's or not
  // a profile event — or when anything in them is not as a chunk's would be
  // (then the usual path reads them and says what is wrong). False: nothing
  // was read ahead.
  bool ReadAhead(size_t at, DataRead* read, size_t* end) {
    if (!last_) return false;
    JsonCursor c(text_);
    c.Seek(at);
    bool ok = c.BeginObject(), data = false;
    std::string key, unused;
    while (ok && c.NextKey(&key)) {
      if (key != "data") {
        ok = c.Skip();
      } else {
        ok = !data && ReadData(c, std::string_view(), last_, read, &unused);
        data = true;
      }
    }
    if (ok && c.ok()) {
      *end = c.Offset();
      return true;
    }
    Undo(*read);
    return false;
  }

  Pending& ProfileOf(const EventHead& e) {
    auto key = std::make_pair(e.pid, e.id);
    auto it = by_key_.find(key);
    if (it != by_key_.end()) return *profiles_[it->second];
    by_key_.emplace(key, profiles_.size());
    profiles_.push_back(std::make_unique<Pending>());
    Pending& p = *profiles_.back();
    p.raw.pid = e.pid;
    p.raw.id = e.id;
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
    last_ = &p;
    std::string inner;
    bool ok = c.BeginObject();
    std::string key;
    while (ok && c.NextKey(&key)) {
      if (key != "data") {
        ok = c.Skip();
      } else if (e.name == "CpuProfile") {
        ok = CpuProfileData(c, e, &p, &inner);
      } else {
        DataRead read;
        ok = ReadData(c, e.name, &p, &read, &inner) && Commit(e, read, &inner);
      }
    }
    if (ok && c.ok()) return true;
    return Say(Where(e) + ": " + (inner.empty() ? c.error() : inner));
  }

  // Reads a Profile or ProfileChunk event's args.data (`name` empty: not
  // known yet, read as either): nodes, samples and deltas go to p's tables,
  // the rest into *read until Commit().
  bool ReadData(JsonCursor& c, std::string_view name, Pending* p,
                DataRead* read, std::string* err) {
    RawCpuProfile& raw = p->raw.profile;
    *read = DataRead{p, raw.tree.mark(), raw.samples.nodes.size(),
                     p->deltas.size()};
    if (!c.BeginObject()) return false;
    std::string key;
    while (c.NextKey(&key)) {
      bool ok = true;
      if (key == "startTime" && name != "ProfileChunk") {
        ok = c.Number(&read->start_us);
        read->has_start = true;
      } else if (key == "endTime") {
        ok = c.Number(&read->end_us);
        read->has_end = true;
      } else if (key == "timeDeltas") {
        ok = ReadIntArray(c, &p->deltas);
        read->has_deltas = true;
      } else if (key == "cpuProfile" && name != "Profile") {
        read->cpu_profile = true;
        ok = c.BeginObject();
        while (ok && c.NextKey(&key)) {
          if (key == "nodes") {
            ok = c.BeginArray();
            while (ok && c.NextElement()) ok = raw.tree.ReadNode(c, err);
          } else if (key == "samples") {
            ok = ReadIntArray(c, &raw.samples.nodes);
          } else if (key == "endTime") {
            ok = c.Number(&read->end_us);
            read->has_end = true;
          } else {
            ok = c.Skip();
          }
        }
      } else {
        ok = c.Skip();
      }
      if (!ok) return false;
    }
    return c.ok();
  }

  // The rules of one event's data, then what it says about the profile.
  bool Commit(const EventHead& e, const DataRead& read, std::string* err) {
    Pending* p = read.p;
    const size_t samples = p->raw.profile.samples.nodes.size() - read.samples;
    const size_t deltas = p->deltas.size() - read.deltas;
    if (e.name == "Profile" && !read.has_start && !p->has_profile) {
      *err = "no data.startTime";
      return false;
    }
    if (samples != deltas && (samples || read.has_deltas)) {
      *err = std::to_string(samples) + " samples but " +
             std::to_string(deltas) + " timeDeltas";
      return false;
    }
    if (e.name == "Profile" && read.has_start) {
      p->raw.profile.start_us = read.start_us;
      p->has_profile = true;
      p->raw.tid = e.tid;
    }
    if (read.has_end) p->raw.profile.end_us = read.end_us;
    return true;
  }

  void Undo(DataRead& read) {
    if (!read.p) return;
    read.p->raw.profile.tree.Rewind(read.nodes);
    read.p->raw.profile.samples.nodes.resize(read.samples);
    read.p->deltas.resize(read.deltas);
    read = DataRead{};
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
      if (!ReadCpuProfile(c, &p->raw.profile, err)) return false;
      p->has_profile = true;
      p->raw.tid = e.tid;
    }
    return c.ok();
  }

  bool Finish() {
    for (auto& pending : profiles_) {
      Pending& p = *pending;
      std::string what =
          "profile " + p.raw.id + " (pid " + std::to_string(p.raw.pid) + "): ";
      if (!p.has_profile)
        return Say(what + "ProfileChunk events without its Profile event");
      if (!p.deltas.empty() || p.raw.profile.samples.times_us.empty())
        AddDeltas(p.raw.profile.start_us, p.deltas,
                  &p.raw.profile.samples.times_us);
      std::string err;
      if (!p.raw.profile.tree.Validate(&err) ||
          !CheckSamples(p.raw.profile.tree, &p.raw.profile.samples, &err))
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
  Pending* last_ = nullptr;  // the last profile event's profile
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

Status ReadChromeTrace(std::string_view json, double time_origin_us,
                       std::vector<ChromeTraceRawProfile>* out,
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
  double origin = time_origin_us;
  if (!std::isfinite(origin)) {
    origin = std::numeric_limits<double>::infinity();
    for (auto& p : r.profiles()) {
      const RawCpuProfile& raw = p->raw.profile;
      origin = std::min(origin, raw.start_us);
      for (double t : raw.samples.times_us) origin = std::min(origin, t);
    }
  }
  info->time_origin_us = origin;
  for (auto& p : r.profiles()) out->push_back(std::move(p->raw));
  return Status::kOk;
}

Status ImportChromeTrace(std::string_view json,
                         const ChromeTraceImportOptions& options,
                         std::vector<ChromeTraceProfile>* out,
                         ChromeTraceImportInfo* info, std::string* error) {
  std::vector<ChromeTraceRawProfile> raw;
  Status st = ReadChromeTrace(json, options.time_origin_us, &raw, info, error);
  if (st != Status::kOk) return st;
  const double origin = info->time_origin_us;
  for (ChromeTraceRawProfile& r : raw) {
    RawCpuProfile& p = r.profile;
    ChromeTraceProfile prof;
    prof.pid = r.pid;
    prof.tid = r.tid;
    prof.id = r.id;
    prof.session = std::make_unique<Session>(SessionOptions{
        MedianIntervalMs(p.samples.times_us), options.max_buffer_size, 0});
    p.tree.Intern(&prof.session->trace());
    prof.samples = AppendSamples(p.tree, p.samples, origin,
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::infinity(),
                                 prof.session.get(), &prof.truncated);
    prof.end_ms = RawCpuProfileEndMs(p, origin);
    out->push_back(std::move(prof));
  }
  return Status::kOk;
}

}  // namespace webprof
