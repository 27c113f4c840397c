// The Gecko profile importer on arbitrary text and on generated profiles
// whose tables hold arbitrary indices, locations and times, cut anywhere:
// it never crashes, a refusal adds nothing to the session, and an accepted
// profile leaves a trace whose ids are in range, parents before children
// and samples in time order.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include "fuzz_reader.h"
#include "import/gecko_profile.h"
#include "trace_invariants.h"

using namespace webprof;

namespace {

// A number cell: an index, null, a bool or a double, all from the input.
std::string Cell(fuzz::Reader& r, uint32_t range) {
  switch (r.Byte() % 8) {
    case 0:
      return "null";
    case 1:
      return "true";
    case 2:
      return std::to_string(r.F64());
    default:
      return std::to_string(range ? r.Byte() % (range + 2) : 0);
  }
}

std::string Generated(fuzz::Reader& r) {
  static const char* kLocations[] = {"f (https://a.test/x.js:1:2)[0]",
                                     "https://a.test/x.js[0]",
                                     "https://a.test/x.js:3:4",
                                     "Performance.now",
                                     "0x7f00",
                                     "(root)",
                                     "g (chrome://b/c.js:1:1)",
                                     "h (https://a.test/y.js:9:9)[7]"};
  uint32_t nstrings = 1 + r.Byte() % 8, nframes = 1 + r.Byte() % 8,
           nstacks = 1 + r.Byte() % 16, nsamples = r.Byte() % 32;
  std::string strings;
  for (uint32_t i = 0; i < nstrings; ++i) {
    if (i) strings += ",";
    strings += r.Byte() % 4 ? fuzz::Quoted(kLocations[r.Byte() % 8])
                            : fuzz::Quoted(r.Bytes());
  }
  std::string frames, stacks, samples;
  for (uint32_t i = 0; i < nframes; ++i)
    frames += (i ? ",[" : "[") + Cell(r, nstrings) + "," + Cell(r, 1) + "]";
  for (uint32_t i = 0; i < nstacks; ++i)
    stacks += (i ? ",[" : "[") + Cell(r, i) + "," + Cell(r, nframes) + "]";
  for (uint32_t i = 0; i < nsamples; ++i)
    samples += (i ? ",[" : "[") + Cell(r, nstacks) + "," +
               std::to_string(r.Byte() % 64) + "]";
  std::string thread =
      "{\"name\":\"GeckoMain\",\"processType\":\"tab\",\"pid\":\"7\","
      "\"stringTable\":[" +
      strings +
      "],"
      "\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1},"
      "\"data\":[" +
      frames +
      "]},"
      "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[" +
      stacks +
      "]},"
      "\"samples\":{\"schema\":{\"stack\":0,\"time\":1},\"data\":[" +
      samples + "]}}";
  std::string json =
      "{\"meta\":{\"interval\":1,\"startTime\":1000},\"threads\":[],"
      "\"processes\":[{\"meta\":{\"startTime\":2000},\"pages\":[{\"url\":"
      "\"https://a.test/\"}],\"sources\":{\"schema\":{\"startLine\":2,"
      "\"startColumn\":3},\"data\":[[\"id\",\"u\"," +
      Cell(r, 5) + "," + Cell(r, 5) + "]]},\"threads\":[" + thread + "]}]}";
  return fuzz::Cut(r, std::move(json));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader r{data, size};
  std::string json = fuzz::GeneratedOrRaw(r, Generated);
  GeckoImportOptions o;
  if (r.Byte() % 2) o.page_url = "https://a.test/";
  if (r.Byte() % 2) o.window_start_ms = 2000 + r.Byte() % 64;
  Session session(SessionOptions{1, 1u + r.Byte() % 40, 0});
  GeckoImportInfo info;
  std::string error;
  Status st = ImportGeckoProfile(json, o, &session, &info, &error);
  fuzz::CheckImport(st, error, session.trace(), info.samples);
  return 0;
}
