// Reads a fuzzer's input as a stream of small values; past the end every
// read yields zeros, so a target never reads out of bounds. Also the
// helpers every target that generates JSON text from its input uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace webprof::fuzz {

struct Reader {
  const uint8_t* p;
  size_t n;

  uint8_t Byte() { return n ? (--n, *p++) : 0; }
  uint32_t U32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | Byte();
    return v;
  }
  // Any double, NaN and infinities included.
  double F64() {
    uint64_t hi = U32();
    uint64_t bits = (hi << 32) | U32();
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  // Up to 23 raw bytes (any encoding).
  std::string_view Bytes() {
    size_t len = Byte() % 24;
    if (len > n) len = n;
    std::string_view s(reinterpret_cast<const char*>(p), len);
    p += len;
    n -= len;
    return s;
  }
};

// Half the inputs as text `generate(r)` builds from the bytes (well-formed
// enough to reach an importer's deep rules), half as the raw bytes.
template <class Generate>
std::string GeneratedOrRaw(Reader& r, Generate generate) {
  return r.Byte() % 2 ? generate(r)
                      : std::string(reinterpret_cast<const char*>(r.p), r.n);
}

// `s` as a JSON string: quotes and backslashes escaped, control characters
// dropped, other bytes (any encoding) kept for the reader to judge.
inline std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (static_cast<unsigned char>(c) >= 0x20) out.push_back(c);
  }
  return out + "\"";
}

// Now and then cut short anywhere, as a truncated file would be.
inline std::string Cut(Reader& r, std::string json) {
  if (r.Byte() % 4 == 0) json.resize(r.U32() % (json.size() + 1));
  return json;
}

}  // namespace webprof::fuzz
