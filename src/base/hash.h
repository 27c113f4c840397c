// Small, fast, non-cryptographic hashing for the interning tables.
//
// The tables hash short keys (function names, URLs, a few integers) many
// times per sample, so this is a word-at-a-time multiply/xor-shift mix rather
// than a byte loop. Quality only needs to be good enough for linear probing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace webprof {

inline uint64_t HashMix(uint64_t h) {
  h ^= h >> 32;
  h *= 0xd6e8feb86659fd93ull;
  h ^= h >> 32;
  h *= 0xd6e8feb86659fd93ull;
  h ^= h >> 32;
  return h;
}

inline uint64_t HashCombine(uint64_t seed, uint64_t v) {
  return HashMix(seed ^ (v + 0x9e3779b97f4a7c15ull + (seed << 6)));
}

inline uint64_t HashBytes(std::string_view s) {
  uint64_t h = 0x243f6a8885a308d3ull ^ (s.size() * 0x9e3779b97f4a7c15ull);
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  if (n) std::memcpy(&tail, p, n);  // an empty view may have a null data()
  h = (h ^ tail) * 0x94d049bb133111ebull;
  return HashMix(h);
}

}  // namespace webprof
