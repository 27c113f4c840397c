// The .cpuprofile importer on arbitrary text and on generated profiles whose
// node trees hold duplicate ids, cycles, forward and dangling references,
// cut anywhere: it never crashes, a refusal says why and adds nothing, and
// an accepted profile leaves a trace whose ids are in range, parents before
// children and samples in time order.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "import/cpuprofile.h"
#include "trace_invariants.h"
#include "v8_profile_gen.h"

using namespace webprof;
using fuzz::Check;

namespace {

std::string Generated(fuzz::Reader& r) {
  uint32_t nodes;
  std::string list = fuzz::Nodes(r, &nodes, r.Byte() % 4 == 0);
  std::string samples, deltas;
  fuzz::Samples(r, &samples, &deltas);
  return fuzz::Cut(
      r, "{\"nodes\":[" + list + "],\"startTime\":" + std::to_string(r.Byte()) +
             ",\"endTime\":" + std::to_string(r.Byte() * 4) + ",\"samples\":[" +
             samples + "],\"timeDeltas\":[" + deltas + "]}");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader r{data, size};
  std::string json = fuzz::GeneratedOrRaw(r, Generated);
  CpuProfileImportOptions o;
  if (r.Byte() % 2) o.window_start_us = r.Byte();
  Session session(SessionOptions{1, 1u + r.Byte() % 40, 0});
  CpuProfileImportInfo info;
  std::string error;
  Status st = ImportCpuProfile(json, o, &session, &info, &error);
  Check(st == Status::kOk || st == Status::kMalformedProfile);
  fuzz::CheckImport(st, error, session.trace(), info.samples);
  return 0;
}
