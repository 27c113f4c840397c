// Drives the probes' Recorder with arbitrary operation sequences (any ids,
// names, times, limits, windows) and checks the window invariants after each
// End(): limits respected, boundaries first and last, traces complete and in
// start order, every successful aggr end counted exactly once, percentiles
// ordered and inside [min, max], ids below 2^30.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_reader.h"
#include "probes/window.h"

using namespace webprof;

namespace {

// Mostly small increasing times, sometimes arbitrary doubles (NaN, inf).
struct Reader : fuzz::Reader {
  double Time(double* clock) {
    uint8_t k = Byte();
    if (k < 240) return *clock += k / 16.0;
    return F64();
  }
};

void CheckAt(bool ok, int line) {
  if (ok) return;
  std::fprintf(stderr, "probes_fuzz: invariant at line %d broken\n", line);
  std::abort();
}
#define Check(x) CheckAt((x), __LINE__)

void CheckReport(const Recorder& r, uint32_t mark_limit, uint32_t trace_limit,
                 uint64_t ended_in_window) {
  const WindowReport& w = r.last_report();
  Check(w.marks.size() >= 2 && w.marks.size() <= mark_limit);
  Check(w.marks.front().boundary && w.marks.front().name == r.start_name());
  Check(w.marks.back().boundary && w.marks.back().name == r.end_name());
  Check(w.traces.size() <= trace_limit);
  for (const TraceRecord& t : w.traces) Check(!std::isnan(t.duration));
  uint64_t counted = 0;
  for (const AggrResult& a : w.aggregates) {
    Check(a.count > 0);
    counted += a.count;
    if (std::isfinite(a.min) && std::isfinite(a.max)) {
      Check(a.min <= a.p50 && a.p50 <= a.p90 && a.p90 <= a.p99 &&
            a.p99 <= a.max);
    }
  }
  Check(counted == ended_in_window);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in{{data, size}};
  Recorder r;
  std::vector<StringId> names;
  for (int i = 0; i < 4; ++i) {
    char n[2] = {static_cast<char>('a' + i), 0};
    names.push_back(r.Intern(n));
  }
  std::vector<int32_t> ids;  // every id handed out, stale ones included
  double clock = 0;
  uint32_t mark_limit = 0, trace_limit = 0;
  uint64_t ended = 0;
  while (in.n) {
    uint8_t op = in.Byte() % 12;
    StringId name = names[in.Byte() % names.size()];
    double t = in.Time(&clock);
    switch (op) {
      case 0: {
        PerfStartOptions o;
        o.mark_limit = in.Byte() % 8;
        o.trace_limit = static_cast<double>(in.Byte() % 6) - 1;
        if (r.Start(t, o)) {
          mark_limit = ResolveMarkLimit(o.mark_limit);
          trace_limit = ResolveTraceLimit(o.trace_limit);
          ended = 0;
        }
        break;
      }
      case 1:
        if (r.End(t) == Status::kOk) {
          CheckReport(r, mark_limit, trace_limit, ended);
        }
        break;
      case 2:
      case 3: {
        int32_t id = r.AggrStart(name, t);
        Check(id >= -1 && id < (1 << 30));
        if (id >= 0) ids.push_back(id);
        break;
      }
      case 4:
        if (!ids.empty() && r.AggrEnd(ids[in.Byte() % ids.size()], t)) {
          ++ended;
        }
        break;
      case 5:
        r.AggrStartNamed(name, t);
        break;
      case 6:
        if (r.AggrEndNamed(name, t)) ++ended;
        break;
      case 7: {
        int32_t id = r.TraceStart(name, t, in.Byte() & 1);
        Check(id >= -1 && id < (1 << 30));
        if (id >= 0) ids.push_back(id);
        break;
      }
      case 8:
        if (!ids.empty()) r.TraceEnd(ids[in.Byte() % ids.size()], t, 0);
        break;
      case 9:
        r.TraceEndNamed(name, t, -1);
        break;
      case 10:
        r.Mark(name, t, in.Byte() % 3 - 1);
        break;
      case 11:
        // Arbitrary ids: never crash, never count.
        if (r.AggrEnd(static_cast<int32_t>(in.U32()), t)) ++ended;
        break;
    }
  }
  return 0;
}
