// Byte scans for the JSON reader's fast paths, eight bytes at a time: the
// compact shapes of profiles (a W3C sample `{"timestamp":T,"stackId":S}`, a
// V8 node, the long integer arrays of sample ids and time deltas) are mostly
// short keys, short digit runs and short strings.
//
// Problem: byte-by-byte loops spend several instructions per byte on bounds,
// class tests and a branch that mispredicts at the end of every run; in Wasm
// memcmp/memchr are calls into a scalar libc. Here a word is loaded once
// (a constant-size memcpy: one i64.load in Wasm, one mov natively) and a
// run's length comes from a bit trick and a count of trailing zeros.
//
// Contract: every function reads 8 (Digits*: 8 or 16) bytes from `p`
// whatever the text holds, so callers call them only with that much room
// left (JsonCursor keeps kScanRoom bytes of margin) and take the byte-by-
// byte path near the end of the text. Values are exactly those of the
// byte-by-byte paths (tests/core/base/json_cursor_test.cpp compares both).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace webprof {
namespace json_scan {

// The room a fast path needs past its position: a 16-digit run, a sign, a
// fraction point and the byte after, rounded up.
constexpr size_t kScanRoom = 64;

// Powers of ten exact in each type: 10^0..10^16 as integers (a digit run's
// scale), 10^0..10^15 as doubles (Clinger's fast path divides by them).
inline constexpr uint64_t kPow10Int[] = {1,
                                         10,
                                         100,
                                         1000,
                                         10000,
                                         100000,
                                         1000000,
                                         10000000,
                                         100000000,
                                         1000000000,
                                         10000000000,
                                         100000000000,
                                         1000000000000,
                                         10000000000000,
                                         100000000000000,
                                         1000000000000000,
                                         10000000000000000};
inline constexpr double kPow10Double[] = {1e0,  1e1,  1e2,  1e3, 1e4,  1e5,
                                          1e6,  1e7,  1e8,  1e9, 1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15};

// The bytes at p as a little-endian word (byte 0 lowest) on any host.
template <typename Word>
inline Word LoadLittle(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  if constexpr (sizeof w == 8)
    w = __builtin_bswap64(w);
  else
    w = __builtin_bswap32(w);
#endif
  return w;
}
inline uint64_t Load8(const char* p) { return LoadLittle<uint64_t>(p); }
inline uint32_t Load4(const char* p) { return LoadLittle<uint32_t>(p); }

// Index of the lowest set bit (x != 0) / 8: the first flagged byte.
inline unsigned FirstByte(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return static_cast<unsigned>(__builtin_ctzll(x)) >> 3;
#else
  unsigned n = 0;
  while (!(x & 0xFF)) x >>= 8, ++n;
  return n;
#endif
}

// a[0..n) == b[0..n): words when n >= 4 (overlapping at the end), bytes
// below. With a constant n (a key literal) this folds to one or two
// compares.
inline bool SameBytes(const char* a, const char* b, size_t n) {
  if (n >= 8) {
    size_t k = 0;
    for (; k + 8 < n; k += 8)
      if (Load8(a + k) != Load8(b + k)) return false;
    return Load8(a + n - 8) == Load8(b + n - 8);
  }
  if (n >= 4)
    return Load4(a) == Load4(b) && Load4(a + n - 4) == Load4(b + n - 4);
  for (size_t k = 0; k < n; ++k)
    if (a[k] != b[k]) return false;
  return true;
}

constexpr uint64_t kOnes = 0x0101010101010101u;
constexpr uint64_t kHighs = 0x8080808080808080u;

// Bytes of w that are zero get their high bit set (the lowest flagged byte
// is exact; bytes above it may be flagged by a borrow, and callers only
// look at the lowest).
inline uint64_t ZeroBytes(uint64_t w) { return (w - kOnes) & ~w & kHighs; }

// How many of the 8 bytes at p are plain string content: not '"', not '\\',
// not a control character (below 0x20). 8: all of them.
inline unsigned StringRun8(const char* p) {
  const uint64_t w = Load8(p);
  const uint64_t stop = ZeroBytes(w ^ (kOnes * '"')) |
                        ZeroBytes(w ^ (kOnes * '\\')) |
                        ((w - kOnes * 0x20) & ~w & kHighs);
  return stop ? FirstByte(stop) : 8;
}

// The number spelled by the first n (1..8) bytes of x, a word whose bytes
// are digit values (the text's bytes less '0'; bytes past n are ignored).
inline uint64_t DigitsValue(uint64_t x, unsigned n) {
  // Digits to the top bytes (leading zero bytes in front), the rest
  // shifted out, then the multiply steps of a 4- or 8-digit conversion
  // (pairs, quads, the whole). Ids and deltas are mostly up to 4 digits.
  if (n <= 4) {
    uint32_t v = static_cast<uint32_t>(x) << (8 * (4 - n));
    v = v * 10 + (v >> 8);
    return (v & 0xFF) * 100 + ((v >> 16) & 0xFF);
  }
  uint64_t v = x << (8 * (8 - n));
  v = v * 10 + (v >> 8);
  return (((v & 0x000000FF000000FFu) * (100 + (uint64_t{1000000} << 32))) +
          (((v >> 16) & 0x000000FF000000FFu) *
           (1 + (uint64_t{10000} << 32)))) >>
         32;
}

// The run of ASCII digits at p (at most 8): its length, and in *value the
// number it spells (0 when the length is 0).
inline unsigned Digits8(const char* p, uint64_t* value) {
  const uint64_t w = Load8(p);
  const uint64_t x = w - kOnes * '0';  // a digit's byte: its value
  // A byte below '0' borrows (high bit set), one above '9' reaches 0x80
  // when 0x46 is added (or borrows, past 0xB0); a borrow or carry only
  // reaches the bytes after it.
  const uint64_t bad = (x | (w + kOnes * 0x46)) & kHighs;
  const unsigned n = bad ? FirstByte(bad) : 8;
  *value = n == 0 ? 0 : DigitsValue(x, n);
  return n;
}

// The same for a run of up to 16 digits (16 bytes read).
inline unsigned Digits16(const char* p, uint64_t* value) {
  const unsigned n = Digits8(p, value);
  if (n < 8) return n;
  uint64_t low;
  const unsigned m = Digits8(p + 8, &low);
  *value = *value * kPow10Int[m] + low;
  return 8 + m;
}

// A JSON number at p that JsonCursor reads inline — digits[.digits], 1 to
// 15 digits in all, no sign, no leading zero, no exponent (32 bytes read) —
// with the value JsonCursor::Number() gives it (the exact mantissa over an
// exact power of ten: Clinger's fast path). Returns the bytes it spans, 0
// when the text is not such a number (the cursor's full path decides).
inline size_t PlainDecimal(const char* p, double* out) {
  uint64_t m;
  const unsigned whole = Digits16(p, &m);
  if (whole == 0 || whole > 15 || (p[0] == '0' && whole > 1)) return 0;
  size_t end = whole;
  unsigned fraction = 0;
  if (p[end] == '.') {
    uint64_t f;
    fraction = Digits16(p + end + 1, &f);
    if (fraction == 0 || whole + fraction > 15) return 0;
    m = m * kPow10Int[fraction] + f;
    end += 1 + fraction;
  }
  if (p[end] == 'e' || p[end] == 'E') return 0;
  *out = static_cast<double>(m) / kPow10Double[fraction];
  return end;
}

// A W3C index as JsonCursor reads one inline: 1 to 10 digits, no leading
// zero, below 2^32 - 1 (`kNone`). Returns the bytes, 0 otherwise.
inline size_t PlainIndex(const char* p, uint32_t* out) {
  uint64_t v;
  const unsigned n = Digits16(p, &v);
  if (n == 0 || n > 10 || (p[0] == '0' && n > 1) || v >= 0xFFFFFFFFu) return 0;
  *out = static_cast<uint32_t>(v);
  return n;
}

}  // namespace json_scan
}  // namespace webprof
