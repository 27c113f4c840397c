// Interning and sample append, ns per op. Each benchmark family carries its
// own baseline (a plain vector push / an unordered_map lookup) in the same run.
#include <benchmark/benchmark.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "trace/session.h"

namespace webprof {
namespace {

std::vector<std::string> Names(int n) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) v.push_back("function_name_" + std::to_string(i));
  return v;
}

void BM_InternFrameHit(benchmark::State& st) {
  ProfilerTrace t;
  auto names = Names(1024);
  for (auto& n : names)
    t.InternFrame(RawFrame{n, "https://example.com/app.js", 10, 4});
  size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(t.InternFrame(
        RawFrame{names[i++ & 1023], "https://example.com/app.js", 10, 4}));
  }
}
BENCHMARK(BM_InternFrameHit);

void BM_BaselineUnorderedMapHit(benchmark::State& st) {
  std::unordered_map<std::string, int> m;
  auto names = Names(1024);
  for (int i = 0; i < 1024; ++i) m[names[i]] = i;
  size_t i = 0;
  for (auto _ : st) benchmark::DoNotOptimize(m.find(names[i++ & 1023]));
}
BENCHMARK(BM_BaselineUnorderedMapHit);

void BM_InternStackDepth20(benchmark::State& st) {
  ProfilerTrace t;
  auto names = Names(64);
  std::vector<FrameId> frames;
  for (auto& n : names) frames.push_back(t.InternFrame(RawFrame{n, "u", 1, 1}));
  size_t i = 0;
  for (auto _ : st) {
    size_t off = (i++ * 7) & 31;
    benchmark::DoNotOptimize(t.InternStack(frames.data() + off, 20));
  }
  st.SetItemsProcessed(st.iterations() * 20);
}
BENCHMARK(BM_InternStackDepth20);

void BM_SampleAppend(benchmark::State& st) {
  Session s({1, 0xFFFFFFFFu, 0});
  double ts = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(s.TakeSample(ts, StackId::None()));
    ts += 1;
    if (s.trace().samples().size() >= (1u << 24)) {
      st.PauseTiming();
      s = Session({1, 0xFFFFFFFFu, 0});
      ts = 0;
      st.ResumeTiming();
    }
  }
  st.counters["bytes_per_sample"] =
      static_cast<double>(s.trace().samples().memory_bytes()) /
      std::max<size_t>(1, s.trace().samples().size());
}
BENCHMARK(BM_SampleAppend);

void BM_BaselineVectorPush(benchmark::State& st) {
  std::vector<Sample> v;
  double ts = 0;
  for (auto _ : st) {
    v.push_back(Sample{ts, StackId::None()});
    ts += 1;
    if (v.size() >= (1u << 24)) {
      st.PauseTiming();
      v = {};
      st.ResumeTiming();
    }
  }
}
BENCHMARK(BM_BaselineVectorPush);

}  // namespace
}  // namespace webprof
