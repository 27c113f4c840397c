// Generated V8 profile pieces for the .cpuprofile and Chrome trace fuzz
// targets: node lists whose ids, parents and children are arbitrary small
// numbers (so duplicates, cycles, forward and dangling references occur),
// sample lists naming arbitrary nodes, deltas of any sign.
#pragma once

#include <string>

#include "fuzz_reader.h"

namespace webprof::fuzz {

inline std::string CallFrame(Reader& r) {
  static const char* kNames[] = {"(root)", "(program)",           "(idle)", "f",
                                 "",       "(garbage collector)", "g"};
  std::string name =
      r.Byte() % 5 ? kNames[r.Byte() % 7] : std::string(r.Bytes());
  std::string url = r.Byte() % 2 ? "" : "https://a.test/x.js";
  return "{\"functionName\":" + Quoted(name) + ",\"url\":" + Quoted(url) +
         ",\"lineNumber\":" + std::to_string(int(r.Byte() % 6) - 1) +
         ",\"columnNumber\":" + std::to_string(int(r.Byte() % 6) - 1) + "}";
}

// `parents`: link by "parent" members (Chrome chunks), else "children".
inline std::string Nodes(Reader& r, uint32_t* count, bool parents) {
  *count = 1 + r.Byte() % 8;
  std::string out;
  for (uint32_t i = 0; i < *count; ++i) {
    out += i ? ",{" : "{";
    out += "\"id\":" + std::to_string(r.Byte() % 10);
    out += ",\"callFrame\":" + CallFrame(r);
    if (parents && r.Byte() % 3)
      out += ",\"parent\":" + std::to_string(r.Byte() % 10);
    if (!parents && r.Byte() % 2) {
      out += ",\"children\":[";
      for (uint32_t k = 0, n = r.Byte() % 3; k < n; ++k)
        out += (k ? "," : "") + std::to_string(r.Byte() % 10);
      out += "]";
    }
    out += "}";
  }
  return out;
}

// "samples":[...] and the deltas' array body.
inline void Samples(Reader& r, std::string* samples, std::string* deltas) {
  uint32_t n = r.Byte() % 24;
  for (uint32_t i = 0; i < n; ++i) {
    *samples += (i ? "," : "") + std::to_string(r.Byte() % 10);
    *deltas += (i ? "," : "") + std::to_string(int(r.Byte() % 40) - 8);
  }
  if (r.Byte() % 8 == 0) *deltas += ",1";  // a length mismatch
}

}  // namespace webprof::fuzz
