// Whatever bytes a name or an `info` text holds, the JsonWriter's output is
// one valid JSON value (checked by the strict checker), with awkward chunk
// sizes; the checker itself never crashes or recurses on any input.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "export/byte_sink.h"
#include "export/json_check.h"
#include "export/json_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  bool valid = webprof::IsValidJsonValue(in);
  webprof::ByteSink sink(size % 7 + 1);
  webprof::JsonWriter w(&sink);
  w.BeginObject();
  w.Key(in);
  w.BeginArray();
  w.String(in);
  if (w.Raw(in) != valid) std::abort();
  w.EndArray();
  w.EndObject();
  if (!webprof::IsValidJsonValue(sink.ToString())) std::abort();
  return 0;
}
