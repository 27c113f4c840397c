// A pull reader over JSON text: the one JSON reader of the core, for the
// importers of large profiles and the source-map decoder.
//
// Problem: a Firefox profile is tens of MB of JSON of which an importer
// needs one thread's tables (a source map: a few members, one long string); a
// DOM of the whole text would cost several times its size in Wasm memory. The
// cursor reads values in place, in order, and skips what the importer does not
// ask for (Skip() is iterative, so a deep or hostile text never overflows the
// small Wasm stack). An importer may remember Offset() before a value and
// Seek() back to it later: a first pass finds what to read, a second reads only
// that.
//
// Cost: numbers are read in one scan (digits accumulated as they are
// checked; Clinger's exact fast path, strtod only past it), Skip() walks a
// value with a bit per open container and validates as it goes, and Match()
// lets an importer take a known object shape (a V8 node) without per-member
// bookkeeping; away from the text's end, digit runs, string content and
// keys are scanned eight bytes at a time (json_scan.h), and text() lets an
// importer read its own compact rows (W3C samples) with the same scans —
// the reader of 1 000 merged profiles spends its time here
// (docs/BENCHMARKS.md, merge).
//
// Errors: the first failure (truncated text, a wrong token, nesting past
// kMaxDepth, a number out of range) sticks; every later call returns false
// and error() says what was expected at which byte. Strict RFC 8259 tokens;
// strings come back with escapes decoded (an escaped lone surrogate becomes
// U+FFFD; other bytes are passed on as they are: the trace's string tables
// normalise UTF-8 when they intern).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_scan.h"

namespace webprof {

// A number's text split while it is scanned: its digits as one integer
// (`mantissa`, exact while there are at most 19 of them), the power of ten
// that scales it, and whether there were more digits (`inexact`: then only
// strtod or the exact integer path decide).
struct JsonNumberParts {
  uint64_t mantissa = 0;  // every digit, leading zeros included
  int64_t scale = 0;      // clamped far outside any double's range
  bool negative = false, inexact = false;
  bool plain = true;  // no fraction, no exponent
};

class JsonCursor {
 public:
  static constexpr size_t kMaxDepth = 512;
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject, kBad };

  explicit JsonCursor(std::string_view text) : text_(text) {}

  // The type of the next value (whitespace skipped); kBad at the end or on
  // a character no value starts with.
  Type Peek();

  // Containers: Begin*() enters one; Next*() moves to its next member and
  // returns false (having consumed the closing bracket) when there is none.
  bool BeginObject();
  bool NextKey(std::string* key);  // key may be null
  // The same with the key as a view (String(view, scratch)): no copy for
  // the keys of a long array of objects.
  bool NextKey(std::string_view* key, std::string* scratch);
  bool BeginArray();
  bool NextElement() {
    // The next element of an array, its comma right here: no bookkeeping.
    if (depth_ && open_[depth_ - 1] == 0 && pos_ < text_.size() &&
        text_[pos_] == ',') {
      ++pos_;
      return true;
    }
    bool more;
    return Separator(']', &more) && more;
  }

  // Scalars; `out` may be null to consume without keeping.
  bool String(std::string* out);
  // A string as a view into the text when it has no escape (no copy: a
  // source map's `mappings`), else decoded into `scratch` and viewed there.
  bool String(std::string_view* out, std::string* scratch);
  bool Number(double* out) {
    double v;
    if (!PlainNumber(&v)) return SlowNumber(out);
    if (out) *out = v;
    return true;
  }
  bool Bool(bool* out);
  bool Null();
  // A number, or null (-> `if_null`): Gecko tables use null for "absent".
  bool NumberOrNull(double* out, double if_null);
  // A number that is an integer in [-2^53, 2^53], read exactly from its text
  // (1.0 and 1e2 are integers; 9007199254740993 and 1.000000000000000001
  // are refused, not rounded).
  bool Int(int64_t* out) { return PlainInt(out) || SlowInt(out); }
  // An array of such integers, appended to `out`: the long arrays of
  // profiles (sample node ids, time deltas) in one tight loop; an element
  // that is not a plain integer of up to 15 digits takes Int()'s path.
  bool IntArray(std::vector<int64_t>* out);
  // The next bytes (after whitespace) are exactly `bytes`: consumed, true;
  // else nothing is consumed and there is no error. For an importer's fast
  // path over a known shape (it Seek()s back and reads member by member
  // when a shape does not match); the open containers are not tracked
  // through it.
  bool Match(std::string_view bytes) {
    // A word at a time (memcmp is a call, a slow one in Wasm).
    if (text_.size() - pos_ >= bytes.size() &&
        json_scan::SameBytes(text_.data() + pos_, bytes.data(), bytes.size())) {
      pos_ += bytes.size();
      return true;
    }
    // Only space before the bytes can still make a match.
    if (pos_ < text_.size() && text_[pos_] != ' ' && text_[pos_] != '\n' &&
        text_[pos_] != '\r' && text_[pos_] != '\t')
      return false;
    return MatchAfterSpace(bytes);
  }
  // Consumes a null and says true; false (and no error) for any other value.
  bool TakeNull() { return Peek() == Type::kNull && Null(); }
  // Any value, with everything inside it.
  bool Skip();
  // The whole document holds nothing past its one value.
  bool AtEnd();

  size_t Offset() { return SkipSpace(), pos_; }
  // The whole text, for an importer's own loop over a compact shape
  // (json_scan.h); it Seek()s past the complete values it consumed.
  std::string_view text() const { return text_; }
  // Back to an offset Offset() returned outside any container (or inside
  // the same containers as now: the nesting is kept as it is).
  void Seek(size_t offset) { pos_ = offset; }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  bool Fail(const char* expected);

 private:
  // The numbers of profiles, inline: at pos_ (no space before it), at most
  // 15 digits, [-]digits[.digits] (PlainNumber) or [-]digits (PlainInt),
  // no leading zero, no exponent. Then a 15-digit mantissa and a power of
  // ten up to 1e15 are exact doubles, so one division gives the correctly
  // rounded value (Clinger's fast path: what the full path computes).
  // False, with nothing consumed, for any other text (the full path takes
  // it, errors included).
  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
  bool PlainDigits(size_t* at, uint64_t* m, size_t* count) const {
    const char* p = text_.data();
    const size_t n = text_.size(), from = *at;
    size_t i = from;
    if (n - i >= json_scan::kScanRoom) {  // 16 digits at most, as below
      uint64_t v;
      i += json_scan::Digits16(p + i, &v);
      *m = *m * json_scan::kPow10Int[i - from] + v;
    } else {
      while (i < n && IsDigit(p[i]) && i - from < 16)
        *m = *m * 10 + static_cast<unsigned>(p[i++] - '0');
    }
    *count = i - from;
    *at = i;
    return *count > 0 && (p[from] != '0' || *count == 1);
  }
  bool PlainInt(int64_t* out) {
    size_t i = pos_, count;
    const bool negative = i < text_.size() && text_[i] == '-';
    uint64_t m = 0;
    i += negative;
    if (!PlainDigits(&i, &m, &count) || count > 15 ||
        (i < text_.size() && (text_[i] == '.' || text_[i] == 'e' ||
                              text_[i] == 'E' || IsDigit(text_[i]))))
      return false;
    pos_ = i;
    *out = negative ? -static_cast<int64_t>(m) : static_cast<int64_t>(m);
    return true;
  }
  bool PlainNumber(double* out) {
    size_t i = pos_, count, fraction = 0;
    const bool negative = i < text_.size() && text_[i] == '-';
    uint64_t m = 0;
    i += negative;
    if (!PlainDigits(&i, &m, &count)) return false;
    if (i < text_.size() && text_[i] == '.') {
      const size_t at = ++i;
      if (!PlainDigits(&i, &m, &fraction) && i == at) return false;
      fraction = i - at;  // leading zeros allowed after the point
    }
    if (count + fraction > 15 ||
        (i < text_.size() &&
         (text_[i] == 'e' || text_[i] == 'E' || IsDigit(text_[i]))))
      return false;
    pos_ = i;
    const double v = static_cast<double>(m) / json_scan::kPow10Double[fraction];
    *out = negative ? -v : v;
    return true;
  }
  bool SlowNumber(double* out);
  bool SlowInt(int64_t* out);

  // Consumes a number's text (RFC 8259 grammar: no leading zero) and
  // splits it into `parts` in the same pass (json_cursor_number.cpp).
  bool ScanNumber(std::string_view* text, JsonNumberParts* parts);
  // The same at pos_, which holds '-' or a digit (no Peek()).
  bool ScanNumberHere(std::string_view* text, JsonNumberParts* parts);
  void SkipSpace();
  bool Literal(std::string_view word);
  bool Separator(char close, bool* more);
  bool Open(uint8_t kind);
  bool MatchAfterSpace(std::string_view bytes);
  // Past a string that starts at pos_ (its quote); false with the error.
  bool SkipString();
  // The first byte at or after i that ends a string's plain content (a
  // quote, a backslash, a control character), or the text's end.
  size_t ContentEnd(size_t i) const;

  static constexpr uint8_t kInObject = 1, kFirst = 2;
  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
  // One entry per open container: kInObject or not, and kFirst while its
  // next member is the first (no comma before it). Fixed: no allocation.
  size_t depth_ = 0;
  uint8_t open_[kMaxDepth];
};

}  // namespace webprof
