// Reads a fuzzer's input as a stream of small values; past the end every
// read yields zeros, so a target never reads out of bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
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

}  // namespace webprof::fuzz
