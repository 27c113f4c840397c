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
// value byte by byte with a bit per open container and validates as it goes,
// and Match() lets an importer take a known object shape (a W3C sample's
// `{"timestamp":…,"stackId":…}`) without per-member bookkeeping — the reader
// of 1 000 merged profiles spends its time here (docs/BENCHMARKS.md, merge).
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
  bool NextElement();

  // Scalars; `out` may be null to consume without keeping.
  bool String(std::string* out);
  // A string as a view into the text when it has no escape (no copy: a
  // source map's `mappings`), else decoded into `scratch` and viewed there.
  bool String(std::string_view* out, std::string* scratch);
  bool Number(double* out);
  bool Bool(bool* out);
  bool Null();
  // A number, or null (-> `if_null`): Gecko tables use null for "absent".
  bool NumberOrNull(double* out, double if_null);
  // A number that is an integer in [-2^53, 2^53], read exactly from its text
  // (1.0 and 1e2 are integers; 9007199254740993 and 1.000000000000000001
  // are refused, not rounded).
  bool Int(int64_t* out);
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
    // Byte by byte: a few bytes, and memcmp is a call (a slow one in Wasm).
    if (text_.size() - pos_ >= bytes.size()) {
      size_t k = 0;
      while (k < bytes.size() && text_[pos_ + k] == bytes[k]) ++k;
      if (k == bytes.size()) {
        pos_ += k;
        return true;
      }
    }
    return MatchAfterSpace(bytes);
  }
  // Consumes a null and says true; false (and no error) for any other value.
  bool TakeNull() { return Peek() == Type::kNull && Null(); }
  // Any value, with everything inside it.
  bool Skip();
  // The whole document holds nothing past its one value.
  bool AtEnd();

  size_t Offset() { return SkipSpace(), pos_; }
  // Back to an offset Offset() returned outside any container (or inside
  // the same containers as now: the nesting is kept as it is).
  void Seek(size_t offset) { pos_ = offset; }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  bool Fail(const char* expected);

 private:
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
