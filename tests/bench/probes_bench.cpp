// Core cost of the probes' hot paths (no clock: times are synthetic, so the
// figures are the core's share of a probe, the JS glue and clock excluded).
#include <benchmark/benchmark.h>

#include "probes/window.h"

namespace webprof {
namespace {

void BM_AggrPair(benchmark::State& state) {
  Recorder r;
  StringId n = r.Intern("render");
  r.Start(0, PerfStartOptions{});
  double t = 0;
  for (auto _ : state) {
    int32_t id = r.AggrStart(n, t);
    t += 0.01;
    benchmark::DoNotOptimize(r.AggrEnd(id, t));
  }
  r.End(t);
}
BENCHMARK(BM_AggrPair);

void BM_AggrNamedPair(benchmark::State& state) {
  Recorder r;
  StringId n = r.Intern("render");
  r.Start(0, PerfStartOptions{});
  double t = 0;
  for (auto _ : state) {
    r.AggrStartNamed(n, t);
    t += 0.01;
    benchmark::DoNotOptimize(r.AggrEndNamed(n, t));
  }
  r.End(t);
}
BENCHMARK(BM_AggrNamedPair);

void BM_AggrNotRecording(benchmark::State& state) {
  Recorder r;
  StringId n = r.Intern("render");
  for (auto _ : state) benchmark::DoNotOptimize(r.AggrStart(n, 1));
}
BENCHMARK(BM_AggrNotRecording);

// A window of 1024 traces, restarted when full (the restart is amortised).
void BM_TracePair(benchmark::State& state) {
  Recorder r;
  StringId n = r.Intern("module:app");
  r.Start(0, PerfStartOptions{});
  double t = 0;
  uint32_t in_window = 0;
  for (auto _ : state) {
    if (++in_window == 1024) {
      r.End(t);
      r.Start(t, PerfStartOptions{});
      in_window = 0;
    }
    int32_t id = r.TraceStart(n, t, false);
    t += 0.01;
    benchmark::DoNotOptimize(r.TraceEnd(id, t, kNoInfo));
  }
  r.End(t);
}
BENCHMARK(BM_TracePair);

void BM_Mark(benchmark::State& state) {
  Recorder r;
  StringId n = r.Intern("data-ready");
  r.Start(0, PerfStartOptions{});
  double t = 0;
  uint32_t in_window = 0;
  for (auto _ : state) {
    if (++in_window == 1022) {
      r.End(t);
      r.Start(t, PerfStartOptions{});
      in_window = 0;
    }
    benchmark::DoNotOptimize(r.Mark(n, t, kNoInfo));
    t += 0.01;
  }
  r.End(t);
}
BENCHMARK(BM_Mark);

}  // namespace
}  // namespace webprof
