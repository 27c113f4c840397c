// The merger over arbitrary inputs of every format it reads — generated W3C
// traces (stack rows with arbitrary parents: self, later, missing), V8
// profiles, or raw bytes — two inputs in a row, then every export format:
// nothing crashes, a refused input leaves the totals as they were, an
// accepted one adds exactly what it reported, the weights of the export
// view add up to the totals and a format writes them.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "export/format_registry.h"
#include "merge/profile_merger.h"
#include "v8_profile_gen.h"

using namespace webprof;

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

std::string W3C(fuzz::Reader& r) {
  std::string frames, stacks, samples;
  uint32_t nframes = 1 + r.Byte() % 4, nstacks = r.Byte() % 8;
  for (uint32_t i = 0; i < nframes; ++i)
    frames +=
        std::string(i ? "," : "") +
        "{\"name\":" + fuzz::Quoted(r.Byte() % 2 ? "f" : r.Bytes()) +
        (r.Byte() % 2
             ? ",\"resourceId\":0,\"line\":" + std::to_string(r.Byte() % 3) +
                   ",\"column\":" + std::to_string(r.Byte() % 3)
             : "") +
        "}";
  for (uint32_t i = 0; i < nstacks; ++i)
    stacks +=
        std::string(i ? "," : "") +
        "{\"frameId\":" + std::to_string(r.Byte() % (nframes + 1)) +
        (r.Byte() % 2 ? ",\"parentId\":" + std::to_string(r.Byte() % 9) : "") +
        "}";
  for (uint32_t i = 0, n = r.Byte() % 16; i < n; ++i)
    samples +=
        std::string(i ? "," : "") +
        "{\"timestamp\":" + std::to_string(r.Byte() % 50) +
        (r.Byte() % 4 ? ",\"stackId\":" + std::to_string(r.Byte() % 9) : "") +
        "}";
  return fuzz::Cut(r, "{\"resources\":[\"https://a.test/x.js\"],\"frames\":[" +
                          frames + "],\"stacks\":[" + stacks +
                          "],\"samples\":[" + samples + "]}");
}

std::string CpuProfile(fuzz::Reader& r) {
  uint32_t nodes;
  std::string list = fuzz::Nodes(r, &nodes, false), samples, deltas;
  fuzz::Samples(r, &samples, &deltas);
  return fuzz::Cut(r, "{\"nodes\":[" + list + "],\"startTime\":0,\"endTime\":" +
                          std::to_string(r.Byte() * 3) + ",\"samples\":[" +
                          samples + "],\"timeDeltas\":[" + deltas + "]}");
}

std::string Input(fuzz::Reader& r) {
  switch (r.Byte() % 3) {
    case 0:
      return W3C(r);
    case 1:
      return CpuProfile(r);
    default:
      return std::string(r.Bytes());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader r{data, size};
  ProfileMerger m;
  if (r.Byte() % 4 == 0) {
    std::string error;
    m.AddSourceMap("x.js",
                   R"({"version":3,"sources":["s.js"],"names":["n"],)"
                   R"("mappings":"AAAAA,CAAC;AACA"})",
                   "", &error);
  }
  for (int round = 0; round < 2; ++round) {
    const MergeTotals before = m.totals();
    MergeInputInfo info;
    std::string error;
    Status st = m.AddInput(Input(r), "fuzz", &info, &error);
    const MergeTotals& after = m.totals();
    if (st != Status::kOk) {
      Check(!error.empty());
      Check(after.samples == before.samples && after.time_ns == before.time_ns);
    } else {
      Check(after.samples == before.samples + info.samples);
      Check(after.time_ns == before.time_ns + info.time_ns);
    }
  }
  const ExportInput& view = m.ExportView();
  uint64_t count = 0;
  int64_t ns = 0;
  for (const SampleWeight& w : *view.weights) {
    count += w.count;
    ns += w.time_ns;
  }
  Check(count == m.totals().samples && ns == m.totals().time_ns);
  // One format per run (each writer is fuzzed on its own by export_fuzz).
  const auto& formats = ExportFormats();
  ByteSink out;
  Check(m.Write(formats[r.Byte() % formats.size()].id, {}, out) == Status::kOk);
  return 0;
}
