// The few JSON text helpers the boundary's declarations are written with, by
// hand: the texts are a few hundred bytes of names and integers, and the
// probes' core must not link a JSON writer for them.
#pragma once

#include <cstdint>
#include <string>

namespace webprof::boundary {

inline void Int(int64_t v, std::string* out) {
  if (v < 0) {
    out->push_back('-');
    v = -v;
  }
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) out->push_back(digits[--n]);
}

// Names and messages hold no control characters; quotes and backslashes
// are escaped all the same.
inline void Str(const char* s, std::string* out) {
  out->push_back('"');
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\') out->push_back('\\');
    out->push_back(*s);
  }
  out->push_back('"');
}

// `"key":` after a comma unless it opens its object.
class Object {
 public:
  explicit Object(std::string* out) : out_(out) { out_->push_back('{'); }
  std::string* Key(const char* key) {
    if (!first_) out_->push_back(',');
    first_ = false;
    Str(key, out_);
    out_->push_back(':');
    return out_;
  }
  void Int(const char* key, int64_t v) { boundary::Int(v, Key(key)); }
  void Close() { out_->push_back('}'); }

 private:
  std::string* out_;
  bool first_ = true;
};

}  // namespace webprof::boundary
