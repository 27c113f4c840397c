#include "export/json_check.h"

#include <cstddef>

#include "base/utf8.h"

namespace webprof {
namespace {

class Checker {
 public:
  explicit Checker(std::string_view t)
      : p_(t.data()), end_(t.data() + t.size()) {}

  bool Run() {
    // States: expecting a value, or after a value inside a container.
    char stack[kJsonMaxDepth];
    int depth = 0;
    SkipWs();
    for (;;) {
      // Expect a value.
      if (p_ >= end_) return false;
      char c = *p_;
      if (c == '{' || c == '[') {
        if (depth == kJsonMaxDepth) return false;
        stack[depth++] = c;
        ++p_;
        SkipWs();
        if (p_ < end_ && *p_ == (c == '{' ? '}' : ']')) {
          ++p_;
          --depth;
        } else {
          if (c == '{' && !KeyColon()) return false;
          continue;
        }
      } else if (!Scalar()) {
        return false;
      }
      // After a value: close containers or move to the next element.
      for (;;) {
        SkipWs();
        if (depth == 0) return p_ == end_;
        if (p_ >= end_) return false;
        char open = stack[depth - 1];
        if (*p_ == ',') {
          ++p_;
          SkipWs();
          if (open == '{' && !KeyColon()) return false;
          break;
        }
        if (*p_ != (open == '{' ? '}' : ']')) return false;
        ++p_;
        --depth;
      }
    }
  }

 private:
  void SkipWs() {
    while (p_ < end_ &&
           (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r'))
      ++p_;
  }
  bool KeyColon() {
    if (p_ >= end_ || *p_ != '"' || !StringToken()) return false;
    SkipWs();
    if (p_ >= end_ || *p_ != ':') return false;
    ++p_;
    SkipWs();
    return true;
  }
  bool Scalar() {
    char c = *p_;
    if (c == '"') return StringToken();
    if (c == '-' || (c >= '0' && c <= '9')) return Number();
    return Word("true") || Word("false") || Word("null");
  }
  bool Word(std::string_view w) {
    if (static_cast<size_t>(end_ - p_) < w.size() ||
        std::string_view(p_, w.size()) != w)
      return false;
    p_ += w.size();
    return true;
  }
  bool Digits() {
    const char* s = p_;
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    return p_ > s;
  }
  bool Number() {
    if (*p_ == '-') ++p_;
    if (p_ >= end_) return false;
    if (*p_ == '0') {
      ++p_;
    } else if (!Digits()) {
      return false;
    }
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (!Digits()) return false;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!Digits()) return false;
    }
    return true;
  }
  static bool Hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
           (c >= 'A' && c <= 'F');
  }
  bool StringToken() {
    const char* start = ++p_;
    while (p_ < end_) {
      auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        bool ok = IsValidUtf8(std::string_view(start, p_ - start));
        ++p_;
        return ok;
      }
      if (c < 0x20) return false;
      if (c == '\\') {
        if (++p_ >= end_) return false;
        char e = *p_;
        if (e == 'u') {
          if (end_ - p_ < 5) return false;
          for (int i = 1; i <= 4; ++i)
            if (!Hex(p_[i])) return false;
          p_ += 4;
        } else if (std::string_view("\"\\/bfnrt").find(e) ==
                   std::string_view::npos) {
          return false;
        }
      }
      ++p_;
    }
    return false;
  }

  const char* p_;
  const char* end_;
};

}  // namespace

bool IsValidJsonValue(std::string_view text) { return Checker(text).Run(); }

}  // namespace webprof
