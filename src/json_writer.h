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

#include "byte_sink.h"

// For the few helpers that must inline into hot loops: Emscripten's clang
// kept the integer formatter out of line (a call per number, ~13% of a 1M
// sample export in Wasm) where the native build inlined it.
#if defined(__GNUC__) || defined(__clang__)
#define WEBPROF_INLINE inline __attribute__((always_inline))
#else
#define WEBPROF_INLINE inline
#endif

namespace webprof {

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
  template <typename ValueAt>
  void IntElements(size_t n, ValueAt&& value_at) {
    constexpr size_t kBatch = 64;
    size_t i = 0;
    while (i < n) {
      size_t end = n - i < kBatch ? n : i + kBatch;
      uint8_t* p = sink_->WritePtr((end - i) * (kMaxIntChars + 1));
      if (!p) {
        IntElement(value_at(i++));
        continue;
      }
      char* c = reinterpret_cast<char*>(p);
      bool first = first_[depth_];
      for (; i < end; ++i) {
        if (!first) *c++ = ',';
        first = false;
        c = FormatInt(c, value_at(i));
      }
      first_[depth_] = false;
      sink_->Advance(static_cast<size_t>(c - reinterpret_cast<char*>(p)));
    }
  }

  int depth() const { return depth_; }

  // Escapes `s` into `*out` as a quoted JSON string (for tests and small
  // texts built outside a sink).
  static void AppendQuoted(std::string_view s, std::string* out);

 private:
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
  // Most values (node ids, µs deltas) fit 32 bits. The digit count comes
  // from comparisons and the digits from a pair table, split at 10^4 and
  // 10^8, so the longest dependency chain is two multiply-shift divisions
  // (32-bit: much cheaper than 64-bit, especially in Wasm) and no loop or
  // memcpy call is involved.
  WEBPROF_INLINE static char* FormatU32(char* out, uint32_t w) {
    if (w < 10000) return FormatBelow10k(out, w);
    if (w < 100000000) {
      out = FormatBelow10k(out, w / 10000);
      return Format4(out, w % 10000);
    }
    out = FormatBelow10k(out, w / 100000000);  // 1 or 2 digits
    uint32_t low = w % 100000000;
    out = Format4(out, low / 10000);
    return Format4(out, low % 10000);
  }
  // 1 to 4 digits, no leading zeros.
  static char* FormatBelow10k(char* out, uint32_t w) {
    if (w < 100) {
      if (w < 10) {
        *out = static_cast<char>('0' + w);
        return out + 1;
      }
      return Put2(out, w);
    }
    uint32_t hi = w / 100;
    if (hi < 10) {
      *out++ = static_cast<char>('0' + hi);
    } else {
      out = Put2(out, hi);
    }
    return Put2(out, w % 100);
  }
  // Exactly 4 digits (leading zeros kept) of w < 10000.
  static char* Format4(char* out, uint32_t w) {
    return Put2(Put2(out, w / 100), w % 100);
  }
  static char* Put2(char* out, uint32_t w) {
    out[0] = kDigitPairs[2 * w];
    out[1] = kDigitPairs[2 * w + 1];
    return out + 2;
  }
  static char* FormatWide(char* out, uint64_t u) {
    char tmp[kMaxIntChars];
    char* t = tmp + kMaxIntChars;
    do {
      *--t = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u);
    while (t < tmp + kMaxIntChars) *out++ = *t++;
    return out;
  }
  static const char kDigitPairs[201];
  void WriteDouble(double v);

  ByteSink* sink_;
  int depth_ = 0;
  bool after_key_ = false;
  bool first_[kMaxDepth + 1] = {true};
};

}  // namespace webprof
