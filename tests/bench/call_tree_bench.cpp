// results(): building the seed-002 call tree and its JSON from a trace.
// Baseline in the same run: one pass over the same samples summing stack
// ids (the least any tree builder must do).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "runtime/call_tree.h"
#include "trace/profiler_trace.h"

namespace webprof {
namespace {

// 100k samples over ~2k distinct stacks, depth 4-20, 200 functions.
ProfilerTrace& Trace() {
  static ProfilerTrace* t = [] {
    auto* trace = new ProfilerTrace();
    std::mt19937 rng(7);
    std::vector<StackId> stacks;
    for (int s = 0; s < 2000; ++s) {
      std::vector<FrameId> ids;
      int depth = 4 + rng() % 17;
      for (int d = 0; d < depth; ++d) {
        std::string name = "fn" + std::to_string(rng() % 200);
        ids.push_back(trace->InternFrame(RawFrame{
            name, "https://app.example.com/main.js", 1 + rng() % 500, 5}));
      }
      stacks.push_back(trace->InternStack(ids.data(), ids.size()));
    }
    for (int i = 0; i < 100000; ++i)
      trace->mutable_samples().Append(
          Sample{double(i), stacks[rng() % stacks.size()]});
    return trace;
  }();
  return *t;
}

void BM_CallTreeBuild(benchmark::State& st) {
  const ProfilerTrace& t = Trace();
  CallTree tree;
  for (auto _ : st) {
    tree.Build(t, nullptr);
    benchmark::DoNotOptimize(tree.root().samples);
  }
  st.counters["nodes"] = tree.nodes().size();
  st.counters["stacks"] = t.stacks().size();
  st.SetItemsProcessed(st.iterations() * t.samples().size());
}
BENCHMARK(BM_CallTreeBuild)->Unit(benchmark::kMillisecond);

void BM_CallTreeJson(benchmark::State& st) {
  const ProfilerTrace& t = Trace();
  CallTree tree;
  tree.Build(t, nullptr);
  std::string json;
  for (auto _ : st) {
    json.clear();
    tree.WriteJson(t, &json);
    benchmark::DoNotOptimize(json.data());
  }
  st.counters["bytes"] = json.size();
}
BENCHMARK(BM_CallTreeJson)->Unit(benchmark::kMillisecond);

void BM_BaselineSamplePass(benchmark::State& st) {
  const ProfilerTrace& t = Trace();
  for (auto _ : st) {
    uint64_t sum = 0;
    t.samples().ForEach([&](const Sample& s) { sum += s.stack.value; });
    benchmark::DoNotOptimize(sum);
  }
  st.SetItemsProcessed(st.iterations() * t.samples().size());
}
BENCHMARK(BM_BaselineSamplePass)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace webprof
