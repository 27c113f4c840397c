// The source map decoder on any input: raw bytes as a whole map, and the
// same bytes as `mappings` (plus sources/names counts and a scrap of
// sourcesContent) inside a valid wrapper, so the VLQ decoder and the index
// checks see hostile data past the JSON layer. Never a crash; a map that
// parses only ever answers indices in range; a failed parse leaves it empty.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "symbolicate/source_map.h"
#include "symbolicate/symbolicator.h"

using namespace webprof;

static void Probe(SourceMap& m, const uint8_t* data, size_t size) {
  ScriptSymbolicator s(&m);
  for (size_t i = 0; i + 1 < size && i < 64; i += 2) {
    uint32_t line = data[i] % 8, column = data[i + 1];
    OriginalPosition p;
    if (m.Lookup(line, column, &p)) {
      if (p.source >= m.sources().size() || p.line == 0 || p.column == 0)
        std::abort();
      if (p.name != OriginalPosition::kNone && p.name >= m.names().size())
        std::abort();
    }
    OriginalFrame f;
    if (s.Resolve(line, column, &f) && f.source >= m.sources().size())
      std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  SourceMap m;
  std::string err;
  if (m.Parse(in, "https://x.test/a/b.js.map", &err) != Status::kOk) {
    if (err.empty() || m.segment_count() != 0 || !m.sources().empty())
      std::abort();
  }
  Probe(m, data, size);

  if (size < 2) return 0;
  std::string json = R"({"version":3,"sources":[)";
  for (int i = 0; i < data[0] % 4; ++i) json += i ? ",\"s\"" : "\"s\"";
  json +=
      R"(],"sourcesContent":["function f(a){return ()=>a}\nclass K{m(){}}"],"names":[)";
  for (int i = 0; i < data[1] % 4; ++i) json += i ? ",\"n\"" : "\"n\"";
  json += R"(],"mappings":")";
  for (size_t i = 2; i < size; ++i) {
    char c = static_cast<char>(data[i]);
    json +=
        c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 ? 'A' : c;
  }
  json += "\"}";
  if (m.Parse(json, "", &err) != Status::kOk && m.segment_count() != 0)
    std::abort();
  Probe(m, data, size);
  return 0;
}
