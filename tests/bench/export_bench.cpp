// 1M samples -> Chrome trace JSON / .cpuprofile / Perfetto, in MB/s of output.
// A realistic shape: ~2000 stacks up to depth 24 over 400 frames, 1 ms
// sampling, 5% stackless samples.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "export/format_chrome_trace.h"
#include "export/format_cpuprofile.h"
#include "export/format_perfetto.h"
#include "export/json_writer.h"

namespace webprof {
namespace {

const ProfilerTrace& MillionSamples() {
  static ProfilerTrace* t = [] {
    auto* p = new ProfilerTrace();
    std::vector<FrameId> frames;
    for (int i = 0; i < 400; ++i) {
      std::string name = "fn_" + std::to_string(i) + "_handler";
      frames.push_back(p->InternFrame(RawFrame{
          name, "https://app.example/bundle.js", uint32_t(i * 3 + 1), 5}));
    }
    std::vector<StackId> leaves;
    uint32_t x = 12345;
    for (int s = 0; s < 2000; ++s) {
      FrameId path[24];
      int depth = 4 + s % 20;
      for (int d = 0; d < depth; ++d) {
        x = x * 1103515245u + 12345u;
        path[d] = frames[d < 3 ? d : (x >> 8) % frames.size()];
      }
      leaves.push_back(p->InternStack(path, size_t(depth)));
    }
    for (int i = 0; i < 1000000; ++i) {
      x = x * 1103515245u + 12345u;
      StackId s = (x >> 16) % 20 == 0 ? StackId::None()
                                      : leaves[(x >> 8) % leaves.size()];
      p->mutable_samples().Append(Sample{1000.0 + i * 1.001, s});
    }
    return p;
  }();
  return *t;
}

// Deep recursion: one chain of `depth` frames sampled at every 100th level.
// Writers must stay linear in depth (a page can hand the exporter any trace):
// compare the 10k and 100k rows, output_MB and time should grow ~10x.
const ProfilerTrace& DeepChain(int64_t depth) {
  static ProfilerTrace* traces[2] = {};
  ProfilerTrace*& t = traces[depth > 10000];
  if (t) return *t;
  t = new ProfilerTrace();
  std::vector<FrameId> frames;
  for (int64_t i = 0; i < depth; ++i)
    frames.push_back(t->InternFrame(
        RawFrame{"recurse", "https://app.example/r.js", uint32_t(i + 1), 1}));
  for (int64_t d = 100; d <= depth; d += 100)
    t->mutable_samples().Append(Sample{
        double(d), t->InternStack(frames.data(), static_cast<size_t>(d))});
  return *t;
}

template <typename Fn>
void Run(benchmark::State& state, Fn&& write,
         const ProfilerTrace& trace = MillionSamples()) {
  ExportInput in;
  in.profile = &trace;
  size_t bytes = 0;
  for (auto _ : state) {
    ByteSink sink;
    write(in, sink);
    bytes = sink.size();
    benchmark::DoNotOptimize(sink.chunk_data(0));
  }
  state.SetBytesProcessed(int64_t(bytes) * state.iterations());
  state.counters["output_MB"] = double(bytes) / 1e6;
}

void BM_ChromeTrace1M(benchmark::State& state) {
  Run(state, [](const ExportInput& in, ByteSink& s) {
    WriteChromeTrace(in, ChromeTraceOptions(), s);
  });
}
BENCHMARK(BM_ChromeTrace1M)->Unit(benchmark::kMillisecond);

void BM_CpuProfile1M(benchmark::State& state) {
  Run(state,
      [](const ExportInput& in, ByteSink& s) { WriteCpuProfile(in, s); });
}
BENCHMARK(BM_CpuProfile1M)->Unit(benchmark::kMillisecond);

void BM_Perfetto1M(benchmark::State& state) {
  Run(state, [](const ExportInput& in, ByteSink& s) {
    WritePerfettoTrace(in, PerfettoOptions(), s);
  });
}
BENCHMARK(BM_Perfetto1M)->Unit(benchmark::kMillisecond);

void BM_DeepChromeTrace(benchmark::State& state) {
  Run(
      state,
      [](const ExportInput& in, ByteSink& s) {
        WriteChromeTrace(in, ChromeTraceOptions(), s);
      },
      DeepChain(state.range(0)));
}
BENCHMARK(BM_DeepChromeTrace)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

void BM_DeepCpuProfile(benchmark::State& state) {
  Run(
      state, [](const ExportInput& in, ByteSink& s) { WriteCpuProfile(in, s); },
      DeepChain(state.range(0)));
}
BENCHMARK(BM_DeepCpuProfile)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

void BM_DeepPerfetto(benchmark::State& state) {
  Run(
      state,
      [](const ExportInput& in, ByteSink& s) {
        WritePerfettoTrace(in, PerfettoOptions(), s);
      },
      DeepChain(state.range(0)));
}
BENCHMARK(BM_DeepPerfetto)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// The hot loop alone: 1M random node ids (1..19394) into a JSON array,
// formatted per value (arg 0) or copied from an IntTextCache (arg 1).
void BM_NodeIdArray1M(benchmark::State& state) {
  std::vector<int64_t> ids(1000000);
  uint32_t x = 12345;
  for (int64_t& id : ids) {
    x = x * 1103515245u + 12345u;
    id = 1 + int64_t((x >> 8) % 19394);
  }
  ByteSink sink;
  size_t bytes = 0;
  for (auto _ : state) {
    sink.Clear();
    JsonWriter w(&sink);
    IntTextCache cache(state.range(0) ? 19395 : 0);
    w.BeginArray();
    w.IntElements(
        ids.size(), [&](size_t i) { return ids[i]; },
        state.range(0) ? &cache : nullptr);
    w.EndArray();
    bytes = sink.size();
    benchmark::DoNotOptimize(sink.chunk_data(0));
  }
  state.SetBytesProcessed(int64_t(bytes) * state.iterations());
}
BENCHMARK(BM_NodeIdArray1M)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace webprof
