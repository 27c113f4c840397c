// JsonWriter: streaming JSON text into a ByteSink.
//
// Exporters emit millions of numbers, so the writer is a thin layer that
// formats straight into the sink: no DOM, no std::string per value. It keeps
// a small fixed stack of "first element?" flags so callers never place
// commas by hand (depth is bounded: our formats nest < 16 deep).
//
// Strings: any input bytes become valid JSON. Invalid UTF-8 (including WTF-8
// lone surrogates from JS strings) becomes U+FFFD, `"` and `\` and control
// characters are escaped, everything else (non-BMP text included) is copied
// as UTF-8. Numbers: doubles in the shortest form that round-trips; NaN and
// infinities have no JSON form and are written as null.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "base/decimal.h"
#include "export/byte_sink.h"

// For the few helpers that must inline into hot loops: Emscripten's clang
// kept the integer formatter out of line (a call per number, ~13% of a 1M
// sample export in Wasm) where the native build inlined it.
#if defined(__GNUC__) || defined(__clang__)
#define WEBPROF_INLINE inline __attribute__((always_inline))
#else
#define WEBPROF_INLINE inline
#endif

namespace webprof {

// Decimal text of the integers [0, limit), each formatted on first use and
// then copied as one 8-byte word. Samples arrays repeat values from a small
// range (node ids; µs deltas near the sampling interval), and a copy is a
// few instructions where formatting is a few dozen. Memory: 8 bytes per
// integer of the range (limit <= kMaxLimit, so a text fits 7 bytes).
class IntTextCache {
 public:
  static constexpr uint32_t kMaxLimit = 10000000;
  explicit IntTextCache(uint32_t limit)
      : entries_(limit < kMaxLimit ? limit : kMaxLimit) {}

  bool Has(int64_t v) const {
    return static_cast<uint64_t>(v) < entries_.size();
  }
  // For Has(v): writes its digits at `out` (8 bytes of room) and returns
  // the end.
  char* Write(char* out, int64_t v) {
    Entry& e = entries_[static_cast<size_t>(v)];
    if (e.size == 0) e = Format(static_cast<uint32_t>(v));
    std::memcpy(out, &e, sizeof e);
    return out + e.size;
  }

 private:
  struct Entry {
    char text[7];
    uint8_t size;  // 0: not formatted yet
  };
  static_assert(sizeof(Entry) == 8, "one word per integer");
  static Entry Format(uint32_t v);

  std::vector<Entry> entries_;
};

class JsonWriter {
 public:
  static constexpr int kMaxDepth = 32;

  explicit JsonWriter(ByteSink* sink) : sink_(sink) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  // An object key; the next value call writes its value.
  void Key(std::string_view key);

  void String(std::string_view s) {
    Separate();
    WriteString(s);
  }
  void Int(int64_t v) {
    Separate();
    WriteInt(v);
  }
  void Double(double v) {
    Separate();
    WriteDouble(v);
  }
  void Bool(bool v) {
    Separate();
    sink_->Append(v ? std::string_view("true") : std::string_view("false"));
  }
  void Null() {
    Separate();
    sink_->Append("null");
  }
  // Pre-serialised JSON text (e.g. a probe's `info`). Written as-is when it is
  // one valid JSON value; otherwise written as a JSON string, so the output
  // stays valid whatever the caller passed. Returns whether it was valid.
  bool Raw(std::string_view json);
  // JSON text a JsonWriter produced earlier (e.g. a cached value), appended
  // without Raw()'s check: the caller vouches that it is one valid value.
  void Verbatim(std::string_view json) {
    Separate();
    sink_->Append(json);
  }
  // Hot-path helpers for arrays of integers (one call per element, no
  // separator bookkeeping beyond a bool).
  void IntElement(int64_t v) {
    bool comma = !first_[depth_];
    first_[depth_] = false;
    if (uint8_t* p = sink_->WritePtr(kMaxIntChars + 1)) {
      char* c = reinterpret_cast<char*>(p);
      if (comma) *c++ = ',';
      char* end = FormatInt(c, v);
      sink_->Advance(static_cast<size_t>(end - reinterpret_cast<char*>(p)));
      return;
    }
    if (comma) sink_->Put(',');
    WriteInt(v);
  }

  // Writes `n` integer elements value_at(0..n) into the open array, in
  // batches that are bounds-checked once: the hot loop of every exporter.
  // Each batch gathers its values before formatting any: the output's char
  // stores may alias anything, so interleaved with them every pointer that
  // value_at goes through would be reloaded per element.
  // With a `cache`, values in its range are copied from it.
  template <typename ValueAt>
  void IntElements(size_t n, ValueAt&& value_at,
                   IntTextCache* cache = nullptr) {
    constexpr size_t kBatch = 64;
    int64_t batch[kBatch];
    for (size_t i = 0; i < n;) {
      size_t m = n - i < kBatch ? n - i : kBatch;
      for (size_t k = 0; k < m; ++k) batch[k] = value_at(i + k);
      i += m;
      uint8_t* p = sink_->WritePtr(m * (kMaxIntChars + 1));
      if (!p) {
        for (size_t k = 0; k < m; ++k) IntElement(batch[k]);
        continue;
      }
      char* c = reinterpret_cast<char*>(p);
      size_t k = 0;
      if (first_[depth_]) {
        first_[depth_] = false;
        c = FormatInt(c, batch[k++]);
      }
      if (cache) {
        for (; k < m; ++k) {
          *c++ = ',';
          c = cache->Has(batch[k]) ? cache->Write(c, batch[k])
                                   : FormatInt(c, batch[k]);
        }
      }
      for (; k < m; ++k) {
        *c++ = ',';
        c = FormatInt(c, batch[k]);
      }
      sink_->Advance(static_cast<size_t>(c - reinterpret_cast<char*>(p)));
    }
  }

  int depth() const { return depth_; }

  // Escapes `s` into `*out` as a quoted JSON string (for tests and small
  // texts built outside a sink).
  static void AppendQuoted(std::string_view s, std::string* out);

 private:
  friend class IntTextCache;
  void Open(char c);
  void Close(char c);
  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_[depth_]) sink_->Put(',');
    first_[depth_] = false;
  }
  void WriteString(std::string_view s);
  void WriteInt(int64_t v);
  static constexpr size_t kMaxIntChars = 20;
  // Decimal digits of v at `out` (room for kMaxIntChars); returns the end.
  WEBPROF_INLINE static char* FormatInt(char* out, int64_t v) {
    uint64_t u = static_cast<uint64_t>(v);
    if (v < 0) {
      *out++ = '-';
      u = 0 - u;
    }
    if (u > 0xFFFFFFFFu) return FormatWide(out, u);
    return FormatU32(out, static_cast<uint32_t>(u));
  }
  // Most values (node ids, µs deltas) fit 32 bits. Node ids in a samples
  // array jump between digit counts at random, so a formatter that branches
  // on the magnitude mispredicts about once per number; this one has no
  // branch below 10^8: all eight digits (leading zeros included) are built
  // as one little-endian word from a pair table, with divisions as
  // multiply-shifts (exact in these ranges; Wasm engines are not relied on
  // to strength-reduce them), then the leading zeros are shifted out and the
  // word is stored whole. So up to 8 bytes at `out` may be written even for
  // a shorter number; callers reserve kMaxIntChars + 1.
  WEBPROF_INLINE static char* FormatU32(char* out, uint32_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return FormatWide(out, w);
#else
    if (w >= 100000000) return FormatWide(out, w);
    uint32_t hi = static_cast<uint32_t>((uint64_t{w} * 109951163) >> 40);
    uint32_t lo = w - hi * 10000;  // w = hi * 10^4 + lo
    uint32_t a = (hi * 5243) >> 19, c = (lo * 5243) >> 19;  // x / 100, x < 10^4
    uint64_t word = Pair(a) | Pair(hi - a * 100) << 16 | Pair(c) << 32 |
                    Pair(lo - c * 100) << 48;
    int digits = 1 + (w >= 10) + (w >= 100) + (w >= 1000) + (w >= 10000) +
                 (w >= 100000) + (w >= 1000000) + (w >= 10000000);
    word >>= 8 * (8 - digits);
    std::memcpy(out, &word, sizeof word);
    return out + digits;
#endif
  }
  // The two digit characters of x < 100 as a 16-bit little-endian value.
  static uint64_t Pair(uint32_t x) {
    uint16_t p;
    std::memcpy(&p, &kDigitPairs[2 * x], sizeof p);
    return p;
  }
  static char* FormatWide(char* out, uint64_t u) {
    return FormatUnsigned(out, u);
  }
  static const char kDigitPairs[201];
  void WriteDouble(double v);

  ByteSink* sink_;
  int depth_ = 0;
  bool after_key_ = false;
  bool first_[kMaxDepth + 1] = {true};
};

}  // namespace webprof
