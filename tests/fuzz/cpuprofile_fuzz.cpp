// The .cpuprofile importer on arbitrary text and on generated profiles whose
// node trees hold duplicate ids, cycles, forward and dangling references,
// cut anywhere: it never crashes, a refusal says why and adds nothing, and
// an accepted profile leaves a trace whose ids are in range, parents before
// children and samples in time order.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "import/cpuprofile.h"
#include "v8_profile_gen.h"

using namespace webprof;

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

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
  std::string json = r.Byte() % 2
                         ? Generated(r)
                         : std::string(reinterpret_cast<const char*>(r.p), r.n);
  CpuProfileImportOptions o;
  if (r.Byte() % 2) o.window_start_us = r.Byte();
  Session session(SessionOptions{1, 1u + r.Byte() % 40, 0});
  CpuProfileImportInfo info;
  std::string error;
  Status st = ImportCpuProfile(json, o, &session, &info, &error);
  const ProfilerTrace& t = session.trace();
  if (st != Status::kOk) {
    Check(st == Status::kMalformedProfile && !error.empty());
    Check(t.samples().size() == 0 && t.frames().size() == 0);
    return 0;
  }
  Check(t.samples().size() == info.samples);
  for (uint32_t i = 0; i < t.stacks().size(); ++i) {
    const Stack& row = t.stacks().Get(StackId(i));
    Check(t.frames().Contains(row.frame));
    Check(row.parent.is_none() || row.parent.value < i);
  }
  double prev = 0;
  for (size_t i = 0; i < t.samples().size(); ++i) {
    const Sample& s = t.samples()[i];
    Check(s.timestamp >= prev);
    Check(s.stack.is_none() || t.stacks().Contains(s.stack));
    prev = s.timestamp;
  }
  return 0;
}
