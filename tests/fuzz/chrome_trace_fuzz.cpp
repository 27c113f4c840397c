// The Chrome trace importer on arbitrary text and on generated traces —
// Profile/ProfileChunk events of several profiles in any order, nodes whose
// parents are arbitrary (duplicates, self, forward and dangling references),
// other events to skip — cut anywhere: nothing crashes, a refusal says why
// and yields no profile, an accepted trace gives traces with ids in range,
// parents before children and samples in time order.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "import/chrome_trace.h"
#include "trace_invariants.h"
#include "v8_profile_gen.h"

using namespace webprof;
using fuzz::Check;

namespace {

std::string Generated(fuzz::Reader& r) {
  std::string events;
  for (uint32_t i = 0, n = 1 + r.Byte() % 5; i < n; ++i) {
    std::string id = "\"0x" + std::to_string(1 + r.Byte() % 2) + "\"";
    std::string head = "{\"pid\":1,\"tid\":" + std::to_string(r.Byte() % 3) +
                       ",\"id\":" + id + ",\"ph\":\"P\",";
    std::string ev;
    switch (r.Byte() % 4) {
      case 0:
        ev = head + "\"name\":\"Profile\",\"args\":{\"data\":{\"startTime\":" +
             std::to_string(r.Byte()) + "}}}";
        break;
      case 1:
      case 2: {
        uint32_t count;
        std::string nodes = fuzz::Nodes(r, &count, true), samples, deltas;
        fuzz::Samples(r, &samples, &deltas);
        ev = "{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[" + nodes +
             "],\"samples\":[" + samples + "]},\"timeDeltas\":[" + deltas +
             "]" + (r.Byte() % 2 ? ",\"endTime\":900" : "") + "}}," +
             head.substr(1) + "\"name\":\"ProfileChunk\"}";
        break;
      }
      default:
        ev = "{\"name\":" + fuzz::Quoted(r.Bytes()) +
             ",\"ph\":\"X\",\"args\":{\"a\":[1,{\"b\":null}]}}";
    }
    events += (i ? "," : "") + ev;
  }
  return fuzz::Cut(r, r.Byte() % 2 ? "[" + events + "]"
                                   : "{\"traceEvents\":[" + events + "]}");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader r{data, size};
  std::string json = fuzz::GeneratedOrRaw(r, Generated);
  std::vector<ChromeTraceProfile> profiles;
  ChromeTraceImportInfo info;
  std::string error;
  Status st = ImportChromeTrace(json, {}, &profiles, &info, &error);
  if (st != Status::kOk) {
    Check(!error.empty() && profiles.empty());
  } else {
    for (const ChromeTraceProfile& p : profiles) {
      Check(p.session->trace().samples().size() == p.samples);
      fuzz::CheckTrace(p.session->trace());
    }
  }
  return 0;
}
