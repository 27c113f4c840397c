// Parse + intern of a depth-20 Error.stack text, ns per stack. Baseline in
// the same run: copying the text (what any JS->Wasm hand-over costs anyway).
#include <benchmark/benchmark.h>

#include <string>

#include "sampling/stack_sampler.h"

namespace webprof {
namespace {

std::string DepthV8(int depth) {
  std::string s = "Error";
  for (int i = 0; i < depth; ++i)
    s += "\n    at Component" + std::to_string(i) +
         ".render (https://app.example.com:8443/static/js/main.3f9a.js:" +
         std::to_string(100 + i) + ":" + std::to_string(17 + i) + ")";
  return s;
}

std::string DepthSpiderMonkey(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i)
    s += "render" + std::to_string(i) +
         "@https://app.example.com:8443/static/js/main.3f9a.js:" +
         std::to_string(100 + i) + ":" + std::to_string(17 + i) + "\n";
  return s;
}

void BM_CopyStackTextBaseline(benchmark::State& st) {
  std::string text = DepthV8(20);
  for (auto _ : st) {
    std::string copy = text;
    benchmark::DoNotOptimize(copy.data());
  }
}
BENCHMARK(BM_CopyStackTextBaseline);

void BM_ParseV8Depth20(benchmark::State& st) {
  std::string text = DepthV8(20);
  std::vector<ParsedFrame> frames;
  for (auto _ : st) {
    benchmark::DoNotOptimize(ParseStack(text, StackFormat::kAuto, &frames));
  }
}
BENCHMARK(BM_ParseV8Depth20);

void BM_ParseSpiderMonkeyDepth20(benchmark::State& st) {
  std::string text = DepthSpiderMonkey(20);
  std::vector<ParsedFrame> frames;
  for (auto _ : st) {
    benchmark::DoNotOptimize(ParseStack(text, StackFormat::kAuto, &frames));
  }
}
BENCHMARK(BM_ParseSpiderMonkeyDepth20);

// The whole hot path per due sample: parse, filter, intern (all hits after
// the first round), append the sample — for 1 and for 3 sessions.
void BM_SampleV8Depth20(benchmark::State& st) {
  std::string text = DepthV8(20);
  StackSampler sampler;
  sampler.MuteScript("https://cdn.example.net/muted.js");
  const size_t n = static_cast<size_t>(st.range(0));
  std::vector<std::unique_ptr<Session>> owned;
  std::vector<Session*> sessions;
  for (size_t i = 0; i < n; ++i) {
    owned.emplace_back(new Session(SessionOptions{1, 0xFFFFFFFFu, 0}));
    sessions.push_back(owned.back().get());
  }
  std::vector<Status> results(n);
  double ts = 0;
  for (auto _ : st) {
    sampler.Sample(text, StackFormat::kAuto, ts, sessions.data(), n,
                   results.data());
    ts += 1;
  }
  st.counters["stacks"] = sessions[0]->trace().stacks().size();
}
BENCHMARK(BM_SampleV8Depth20)->Arg(1)->Arg(3);

}  // namespace
}  // namespace webprof
