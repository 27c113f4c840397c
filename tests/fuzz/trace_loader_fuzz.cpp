// The W3C trace loader (trace/trace_loader.h), the one importer of an
// untrusted W3C trace, fed as its two callers feed it:
//  - input starting with '{' is a W3C trace as JSON (the seeds are
//    tests/fixtures/traces/*.json): imported by the core's JSON importer
//    (import/w3c_trace.h, as given), and read into rows with the
//    conversions js/profiler/trace.mjs loadRows applies (a Uint32Array store
//    wraps any number, `?? none` for absent ids, samples stay doubles; or
//    refused whole as JSON.parse would) for the loader both ways;
//  - any other input is a stream of loader calls with generated rows:
//    resources (webprof's own, hidden, arbitrary), frames and stack rows
//    with indices in range, just out of range, self, forward or arbitrary,
//    sample spans committed, dropped or re-reserved, in any order.
// Each input is loaded both ways (as given; as sampled with the stack
// sampler's own-frame rule and hidden resources; Finish() orders samples
// that came out of time order). Never a crash; a refused sample span keeps
// nothing; a refused import adds no sample and says why; every kept stack's
// frame exists and its parent comes first; samples end in time order with a
// known stack or none; loaded as sampled, no kept frame is webprof's own or
// a hidden script's.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "base/json_cursor.h"
#include "fuzz_reader.h"
#include "import/w3c_trace.h"
#include "sampling/stack_sampler.h"
#include "trace/trace_loader.h"
#include "trace_invariants.h"

using namespace webprof;
using fuzz::Check;

namespace {

constexpr uint32_t kNone = TraceLoader::kNone;

// JS ToUint32 (what storing a number into a Uint32Array does).
uint32_t ToUint32(double v) {
  if (!std::isfinite(v)) return 0;
  double m = std::fmod(std::trunc(v), 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return static_cast<uint32_t>(m);
}

struct W3cFrame {
  std::string name;
  uint32_t resource = kNone, line = 0, column = 0;
};
struct W3cTrace {
  std::vector<std::string> resources;
  std::vector<W3cFrame> frames;
  std::vector<uint32_t> stacks;  // [frame, parent] pairs
  std::vector<std::pair<double, double>> samples;
};

// A JSON value as a JS number: null -> if_null, bool -> 0/1, a string or
// container -> NaN (a numeric string is rare enough to ignore).
bool JsNumber(JsonCursor& c, double if_null, double* out) {
  bool b;
  switch (c.Peek()) {
    case JsonCursor::Type::kNumber:
      return c.Number(out);
    case JsonCursor::Type::kNull:
      *out = if_null;
      return c.Null();
    case JsonCursor::Type::kBool:
      if (!c.Bool(&b)) return false;
      *out = b ? 1 : 0;
      return true;
    default:
      *out = NAN;
      return c.Skip();
  }
}

// Each element of an array value: fn(cursor) reads (or skips) one element.
// Not an array: false (loadTrace throws a TypeError, nothing is loaded).
template <typename Fn>
bool EachElement(JsonCursor& c, Fn fn) {
  if (c.Peek() != JsonCursor::Type::kArray || !c.BeginArray()) return false;
  while (c.NextElement())
    if (!fn(c)) return false;
  return c.ok();
}

// Each member of an object element; a non-object element reads as {}.
template <typename Fn>
bool EachMember(JsonCursor& c, Fn fn) {
  if (c.Peek() != JsonCursor::Type::kObject) return c.Skip();
  if (!c.BeginObject()) return false;
  std::string key;
  while (c.NextKey(&key))
    if (!fn(key)) return false;
  return c.ok();
}

bool ParseJson(std::string_view text, W3cTrace* t) {
  JsonCursor c(text);
  if (c.Peek() != JsonCursor::Type::kObject || !c.BeginObject()) return false;
  std::string key;
  while (c.NextKey(&key)) {
    bool ok = true;
    if (key == "resources") {
      ok = EachElement(c, [&](JsonCursor& e) {
        std::string url;  // String(x) of a non-string: its text is not kept
        bool got =
            e.Peek() == JsonCursor::Type::kString ? e.String(&url) : e.Skip();
        t->resources.push_back(url);
        return got;
      });
    } else if (key == "frames") {
      ok = EachElement(c, [&](JsonCursor& e) {
        W3cFrame f;
        double v;
        bool got = EachMember(e, [&](const std::string& k) {
          if (k == "name" && e.Peek() == JsonCursor::Type::kString)
            return e.String(&f.name);
          if (k != "resourceId" && k != "line" && k != "column")
            return e.Skip();
          if (!JsNumber(e, k == "resourceId" ? kNone : 0, &v)) return false;
          (k == "resourceId" ? f.resource
           : k == "line"     ? f.line
                             : f.column) = ToUint32(v);
          return true;
        });
        t->frames.push_back(f);
        return got;
      });
    } else if (key == "stacks") {
      ok = EachElement(c, [&](JsonCursor& e) {
        double frame = NAN, parent = kNone;
        bool got = EachMember(e, [&](const std::string& k) {
          if (k == "frameId") return JsNumber(e, 0, &frame);
          if (k == "parentId") return JsNumber(e, kNone, &parent);
          return e.Skip();
        });
        t->stacks.push_back(ToUint32(frame));
        t->stacks.push_back(ToUint32(parent));
        return got;
      });
    } else if (key == "samples") {
      ok = EachElement(c, [&](JsonCursor& e) {
        double ts = NAN, stack = -1;
        bool got = EachMember(e, [&](const std::string& k) {
          if (k == "timestamp") return JsNumber(e, 0, &ts);
          if (k == "stackId") return JsNumber(e, 0, &stack);
          return e.Skip();
        });
        t->samples.emplace_back(ts, stack);
        return got;
      });
    } else {
      ok = c.Skip();
    }
    if (!ok) return false;
  }
  return c.ok() && c.AtEnd();
}

// Own frames as the page's sampler would have them: the agent's script, a
// cut data: URL of its core, the marker in names, V8's bridges.
const StackSampler& Rule() {
  static StackSampler* s = [] {
    auto* r = new StackSampler();
    r->AddOwnUrlPrefix("https://fixture.test/dist/");
    r->AddOwnUrl(std::string("data:application/wasm;base64,") +
                 std::string(80, 'A'));
    r->SetOwnNameMarker("__webprof$");
    return r;
  }();
  return *s;
}
bool Hidden(std::string_view url) {
  return url.find("muted") != std::string_view::npos;
}

// Writes rows into reserved spans as JS does and commits them (or, when
// `drop`, drops them); returns the first refusal.
Status LoadSamples(TraceLoader& l, ProfilerTrace& t,
                   const std::pair<double, double>* rows, size_t n,
                   size_t chunk, bool drop) {
  for (size_t i = 0; i < n;) {
    size_t before = t.samples().size();
    SampleBuffer::Span span = l.ReserveSamples(std::min(n - i, chunk));
    Check(span.size >= 1);
    for (size_t k = 0; k < span.size; ++k, ++i) {
      char* row = reinterpret_cast<char*>(&span.data[k]);
      std::memcpy(row, &rows[i].first, 8);
      std::memcpy(row + 8, &rows[i].second, 8);
    }
    if (drop) {
      l.DropSamples();
      Check(t.samples().size() == before);
      continue;
    }
    Status s = l.CommitSamples();
    if (s != Status::kOk) {
      Check(t.samples().size() == before);  // a refused span keeps nothing
      return s;
    }
  }
  return Status::kOk;
}

// The shared integrity and, loaded as sampled, no kept frame that is
// webprof's own or a hidden script's.
void CheckTrace(const ProfilerTrace& t, bool as_sampled) {
  fuzz::CheckTrace(t);
  if (!as_sampled) return;
  for (uint32_t i = 0; i < t.frames().size(); ++i) {
    const Frame& f = t.frames().Get(FrameId(i));
    Check(!Rule().IsOwnName(t.names().Get(f.name)));
    if (f.resource.is_none()) continue;
    std::string_view url = t.resource_url(f.resource);
    Check(!Rule().IsOwnScript(url) && !Hidden(url));
  }
}

void LoadJson(const W3cTrace& w, bool as_sampled) {
  ProfilerTrace t;
  TraceLoader l(&t, LoadOptions{as_sampled ? &Rule() : nullptr});
  bool ok = true;
  for (const std::string& url : w.resources)
    ok = ok && l.AddResource(url, Hidden(url)) == Status::kOk;
  for (const W3cFrame& f : w.frames)
    ok = ok && l.AddFrame(f.name, f.resource, f.line, f.column) == Status::kOk;
  ok = ok && l.AddStacks(w.stacks.data(), w.stacks.size() / 2) == Status::kOk;
  if (ok)
    LoadSamples(l, t, w.samples.data(), w.samples.size(), SIZE_MAX, false);
  l.Finish();
  CheckTrace(t, as_sampled);
}

// An index into a table of `n` rows: mostly in range, sometimes just past
// it, none or any value.
uint32_t Index(fuzz::Reader& r, uint32_t n) {
  uint8_t b = r.Byte();
  if (b < 200) return n ? b % n : 0;
  if (b < 220) return n + b % 3;
  if (b < 240) return kNone;
  return r.U32();
}

void LoadStream(fuzz::Reader r, bool as_sampled) {
  static const char* kUrls[] = {
      "https://a.test/app.js", "https://a.test/muted.js",
      "https://fixture.test/dist/webprof.mjs",
      "data:application/wasm;base64,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
      "AAAAAAAAAAAAAAAAAAAAAAAAAAA",
      ""};
  static const char* kNames[] = {
      "main", "", "__webprof$wrap", "js-to-wasm", "wasm-to-js:i:d", "f"};
  ProfilerTrace t;
  TraceLoader l(&t, LoadOptions{as_sampled ? &Rule() : nullptr});
  uint32_t resources = 0, frames = 0, stacks = 0;
  std::vector<uint32_t> rows;
  std::vector<std::pair<double, double>> samples;
  double ts = 0;
  while (r.n) {
    switch (r.Byte() % 5) {
      case 0: {
        std::string_view url = r.Byte() % 4 ? kUrls[r.Byte() % 5] : r.Bytes();
        if (l.AddResource(url, Hidden(url)) == Status::kOk) ++resources;
        break;
      }
      case 1: {
        std::string_view name = r.Byte() % 4 ? kNames[r.Byte() % 6] : r.Bytes();
        uint32_t res = Index(r, resources);
        if (l.AddFrame(name, res, r.Byte() % 4, r.Byte() % 4) == Status::kOk)
          ++frames;
        break;
      }
      case 2: {  // a call of up to 16 stack rows
        rows.clear();
        uint32_t n = r.Byte() % 17;
        for (uint32_t i = 0; i < n; ++i) {
          rows.push_back(Index(r, frames));
          uint8_t b = r.Byte();
          rows.push_back(b < 64    ? kNone
                         : b < 240 ? Index(r, stacks + i)
                                   : stacks + i + b % 3);  // self, forward
        }
        if (l.AddStacks(rows.data(), n) == Status::kOk) stacks += n;
        break;
      }
      default: {  // samples: committed in spans, or dropped
        samples.clear();
        uint32_t n = 1 + r.Byte() % 32;
        for (uint32_t i = 0; i < n; ++i) {
          uint8_t b = r.Byte();
          // Mostly forward, sometimes back (as sampled, Finish() orders).
          double at = std::isfinite(ts) ? ts : 0;
          ts = b < 200 ? at + (b % 4) * 0.5 : b < 240 ? at - (b % 4) : r.F64();
          double stack =
              r.Byte() < 240 ? double(Index(r, stacks + 1)) - 1 : r.F64();
          samples.emplace_back(ts, stack);
        }
        LoadSamples(l, t, samples.data(), n, 1 + r.Byte() % 8,
                    r.Byte() % 8 == 0);
      }
    }
  }
  l.Finish();
  CheckTrace(t, as_sampled);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size && data[0] == '{') {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    Session session(SessionOptions{1, 1u << 20, 0});
    W3CTraceImportInfo info;
    std::string error;
    if (ImportW3CTrace(text, &session, &info, &error) != Status::kOk)
      Check(!error.empty() && session.trace().samples().size() == 0);
    CheckTrace(session.trace(), false);
    W3cTrace w;
    if (!ParseJson({reinterpret_cast<const char*>(data), size}, &w)) return 0;
    LoadJson(w, false);
    LoadJson(w, true);
    return 0;
  }
  LoadStream(fuzz::Reader{data, size}, false);
  LoadStream(fuzz::Reader{data, size}, true);
  return 0;
}
