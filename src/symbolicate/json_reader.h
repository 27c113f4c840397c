// JsonReader: a pull reader over one JSON text, enough for source maps.
//
// A source map is a few known members (arrays of strings, one long string)
// among members we skip; a DOM would copy every string of a multi-megabyte
// map first. The reader walks the text once: the caller asks for the value
// it expects (String, Int, array/object steps) and Skip()s the rest.
// Strings without escapes are returned as views into the text (no copy),
// which covers `mappings` and almost every URL and name.
// Errors: the first failure sticks (ok() false, error() says what and the
// byte offset); every later call returns an empty result, so callers check
// once at the end of a step. Depth is capped (kMaxDepth) so hostile nesting
// cannot exhaust the stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace webprof {

class JsonReader {
 public:
  static constexpr int kMaxDepth = 64;
  enum class Kind { kObject, kArray, kString, kNumber, kBool, kNull, kEnd };

  explicit JsonReader(std::string_view text) : text_(text) {}

  // The kind of the next value (after whitespace); kEnd at the end or after
  // an error.
  Kind Peek();

  // Objects: BeginObject(), then while NextKey(&key) { read or Skip() the
  // value }; NextKey consumes the closing brace and returns false.
  bool BeginObject();
  bool NextKey(std::string* key);
  // Arrays: BeginArray(), then while NextElement() { read the value }.
  bool BeginArray();
  bool NextElement();

  // A string value; `scratch` holds it when it had escapes. Invalid escapes
  // or lone surrogates become U+FFFD.
  bool String(std::string_view* out, std::string* scratch);
  // A number that is an integer in [-2^53, 2^53].
  bool Int(int64_t* out);
  bool Null();  // consumes null; false (no error) when the value is not null
  void Skip();  // any value

  bool AtEnd();  // only whitespace remains
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  void Fail(const char* what);

 private:
  void SkipSpace();
  bool Expect(char c, const char* what);
  bool Literal(std::string_view word);
  void SkipNumber();

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
  // Bit d: the next NextKey/NextElement at depth d is its container's first.
  uint64_t first_ = 0;
  std::string error_;
};

}  // namespace webprof
