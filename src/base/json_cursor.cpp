#include "base/json_cursor.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace webprof {
namespace {

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(char(cp));
  } else if (cp < 0x800) {
    out->push_back(char(0xC0 | (cp >> 6)));
    out->push_back(char(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(char(0xE0 | (cp >> 12)));
    out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(char(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(char(0xF0 | (cp >> 18)));
    out->push_back(char(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(char(0x80 | (cp & 0x3F)));
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Clinger's fast path for a number the grammar already accepted: with at
// most 15 significant digits and a power of ten up to 1e22 both are exact
// doubles, so one multiplication or division rounds correctly — strtod's
// value without strtod (a profile is mostly numbers). False: use strtod.
bool FastNumber(std::string_view s, double* out) {
  static constexpr double kPow10[] = {
      1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  size_t i = 0;
  bool negative = s[0] == '-';
  if (negative) ++i;
  uint64_t m = 0;
  int digits = 0, scale = 0;
  bool fraction = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '.') {
      fraction = true;
      continue;
    }
    if (c == 'e' || c == 'E') break;
    if (m == 0 && c == '0') {  // leading zeros are no significant digit
      if (fraction) --scale;
      continue;
    }
    if (++digits > 15) return false;
    m = m * 10 + uint64_t(c - '0');
    if (fraction) --scale;
  }
  if (i < s.size()) {  // the exponent
    ++i;
    bool minus = s[i] == '-';
    if (s[i] == '-' || s[i] == '+') ++i;
    if (s.size() - i > 3) return false;
    int e = 0;
    for (; i < s.size(); ++i) e = e * 10 + (s[i] - '0');
    scale += minus ? -e : e;
  }
  if (scale < -22 || scale > 22) {
    if (m != 0) return false;
    scale = 0;  // zero with any exponent
  }
  double v = static_cast<double>(m);
  v = scale < 0 ? v / kPow10[-scale] : v * kPow10[scale];
  *out = negative ? -v : v;
  return true;
}

}  // namespace

bool JsonCursor::Fail(const char* expected) {
  if (error_.empty()) {
    error_ = pos_ >= text_.size() ? "truncated at byte " : "at byte ";
    error_ += std::to_string(pos_);
    error_ += ": expected ";
    error_ += expected;
  }
  pos_ = text_.size();
  return false;
}

void JsonCursor::SkipSpace() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
    ++pos_;
  }
}

JsonCursor::Type JsonCursor::Peek() {
  if (!ok()) return Type::kBad;
  SkipSpace();
  if (pos_ >= text_.size()) return Type::kBad;
  switch (text_[pos_]) {
    case '{':
      return Type::kObject;
    case '[':
      return Type::kArray;
    case '"':
      return Type::kString;
    case 't':
    case 'f':
      return Type::kBool;
    case 'n':
      return Type::kNull;
    default: {
      char c = text_[pos_];
      return c == '-' || (c >= '0' && c <= '9') ? Type::kNumber : Type::kBad;
    }
  }
}

bool JsonCursor::BeginObject() {
  if (Peek() != Type::kObject) return Fail("an object");
  if (open_.size() >= kMaxDepth) return Fail("less nesting");
  ++pos_;
  open_.push_back('{');
  first_.push_back(true);
  return true;
}

bool JsonCursor::BeginArray() {
  if (Peek() != Type::kArray) return Fail("an array");
  if (open_.size() >= kMaxDepth) return Fail("less nesting");
  ++pos_;
  open_.push_back('[');
  first_.push_back(true);
  return true;
}

// Past the closing bracket (more = false, container popped) or past the
// comma before the next member (more = true).
bool JsonCursor::Separator(char close, bool* more) {
  *more = false;
  if (!ok()) return false;
  if (open_.empty() || open_.back() != (close == '}' ? '{' : '['))
    return Fail(close == '}' ? "to be inside an object" : "to be in an array");
  SkipSpace();
  if (pos_ >= text_.size()) return Fail(close == '}' ? "'}'" : "']'");
  if (text_[pos_] == close) {
    ++pos_;
    open_.pop_back();
    first_.pop_back();
    return true;
  }
  if (!first_.back()) {
    if (text_[pos_] != ',')
      return Fail(close == '}' ? "',' or '}'" : "',' or ']'");
    ++pos_;
  }
  first_.back() = false;
  *more = true;
  return true;
}

bool JsonCursor::NextKey(std::string* key) {
  bool more;
  if (!Separator('}', &more) || !more) return false;
  if (Peek() != Type::kString) return Fail("a key string");
  if (!String(key)) return false;
  SkipSpace();
  if (pos_ >= text_.size() || text_[pos_] != ':') return Fail("':'");
  ++pos_;
  return true;
}

bool JsonCursor::NextKey(std::string_view* key, std::string* scratch) {
  bool more;
  if (!Separator('}', &more) || !more) return false;
  if (Peek() != Type::kString) return Fail("a key string");
  if (!String(key, scratch)) return false;
  SkipSpace();
  if (pos_ >= text_.size() || text_[pos_] != ':') return Fail("':'");
  ++pos_;
  return true;
}

bool JsonCursor::NextElement() {
  bool more;
  return Separator(']', &more) && more;
}

bool JsonCursor::String(std::string* out) {
  if (Peek() != Type::kString) return Fail("a string");
  if (out) out->clear();
  ++pos_;
  while (pos_ < text_.size()) {
    size_t run = pos_;
    while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\\' &&
           static_cast<unsigned char>(text_[pos_]) >= 0x20)
      ++pos_;
    if (out) out->append(text_.data() + run, pos_ - run);
    if (pos_ >= text_.size()) break;
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      return true;
    }
    if (c != '\\') return Fail("no control character in a string");
    if (pos_ + 1 >= text_.size()) break;
    char e = text_[pos_ + 1];
    pos_ += 2;
    uint32_t cp = 0;
    switch (e) {
      case '"':
        cp = '"';
        break;
      case '\\':
        cp = '\\';
        break;
      case '/':
        cp = '/';
        break;
      case 'b':
        cp = '\b';
        break;
      case 'f':
        cp = '\f';
        break;
      case 'n':
        cp = '\n';
        break;
      case 'r':
        cp = '\r';
        break;
      case 't':
        cp = '\t';
        break;
      case 'u': {
        auto hex4 = [&](uint32_t* v) {
          if (pos_ + 4 > text_.size()) return false;
          *v = 0;
          for (int i = 0; i < 4; ++i) {
            int h = HexValue(text_[pos_ + i]);
            if (h < 0) return false;
            *v = *v * 16 + uint32_t(h);
          }
          pos_ += 4;
          return true;
        };
        if (!hex4(&cp)) return Fail("4 hex digits after \\u");
        if (cp >= 0xD800 && cp < 0xDC00 && pos_ + 1 < text_.size() &&
            text_[pos_] == '\\' && text_[pos_ + 1] == 'u') {
          size_t back = pos_;
          pos_ += 2;
          uint32_t lo;
          if (hex4(&lo) && lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else {
            pos_ = back;
          }
        }
        if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;
        break;
      }
      default:
        return Fail("a valid escape");
    }
    if (out) AppendUtf8(cp, out);
  }
  return Fail("'\"' closing the string");
}

bool JsonCursor::String(std::string_view* out, std::string* scratch) {
  if (Peek() != Type::kString) return Fail("a string");
  const size_t start = pos_ + 1;
  size_t end = start;
  while (end < text_.size() && text_[end] != '"' && text_[end] != '\\' &&
         static_cast<unsigned char>(text_[end]) >= 0x20)
    ++end;
  if (end < text_.size() && text_[end] == '"') {
    *out = text_.substr(start, end - start);
    pos_ = end + 1;
    return true;
  }
  if (!String(scratch)) return false;
  *out = *scratch;
  return true;
}

bool JsonCursor::ScanNumber(std::string_view* text) {
  if (Peek() != Type::kNumber) return Fail("a number");
  size_t start = pos_;
  if (text_[pos_] == '-') ++pos_;
  auto digits = [&] {
    size_t from = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
      ++pos_;
    return pos_ > from;
  };
  if (!digits()) return Fail("a digit");
  if (pos_ < text_.size() && text_[pos_] == '.') {
    ++pos_;
    if (!digits()) return Fail("a digit after '.'");
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
      ++pos_;
    if (!digits()) return Fail("an exponent");
  }
  *text = text_.substr(start, pos_ - start);
  return true;
}

bool JsonCursor::Number(double* out) {
  std::string_view text;
  if (!ScanNumber(&text)) return false;
  double v;
  if (FastNumber(text, &v)) {
    if (out) *out = v;
    return true;
  }
  char buf[64];
  if (text.size() >= sizeof(buf)) return Fail("a shorter number");
  text.copy(buf, text.size());
  buf[text.size()] = 0;
  v = std::strtod(buf, nullptr);
  if (!std::isfinite(v)) return Fail("a finite number");
  if (out) *out = v;
  return true;
}

bool JsonCursor::Literal(std::string_view word) {
  if (text_.substr(pos_, word.size()) != word) return false;
  pos_ += word.size();
  return true;
}

bool JsonCursor::Bool(bool* out) {
  if (Peek() != Type::kBool) return Fail("true or false");
  bool v = text_[pos_] == 't';
  if (!Literal(v ? "true" : "false")) return Fail("true or false");
  if (out) *out = v;
  return true;
}

bool JsonCursor::Null() {
  if (Peek() != Type::kNull || !Literal("null")) return Fail("null");
  return true;
}

bool JsonCursor::NumberOrNull(double* out, double if_null) {
  if (Peek() == Type::kNull) {
    *out = if_null;
    return Null();
  }
  return Number(out);
}

bool JsonCursor::Int(int64_t* out) {
  // Exact, from the text (no strtod: the page's core reads only integers,
  // and strtod is large in Wasm): significant digits times a power of ten.
  std::string_view text;
  if (!ScanNumber(&text)) return false;
  const bool negative = text[0] == '-';
  if (text.size() - negative <= 15 &&
      text.find_first_of(".eE") == std::string_view::npos) {
    int64_t v = 0;  // the common case: plain digits, well below 2^53
    for (size_t k = negative; k < text.size(); ++k)
      v = v * 10 + (text[k] - '0');
    *out = negative ? -v : v;
    return true;
  }
  std::string sig;
  int exp10 = 0;
  size_t i = negative ? 1 : 0;
  bool fraction = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      fraction = true;
    } else {
      if (fraction) --exp10;
      if (!sig.empty() || text[i] != '0') sig.push_back(text[i]);
    }
  }
  if (i < text.size()) {
    const bool down = text[i + 1] == '-';
    int64_t e = 0;
    for (i += (text[i + 1] == '-' || text[i + 1] == '+') ? 2 : 1;
         i < text.size(); ++i)
      e = std::min<int64_t>(e * 10 + (text[i] - '0'), 100000);
    exp10 += static_cast<int>(down ? -e : e);
  }
  while (!sig.empty() && sig.back() == '0') {
    sig.pop_back();
    ++exp10;
  }
  constexpr uint64_t kMax = uint64_t{1} << 53;
  uint64_t v = 0;
  if (!sig.empty()) {
    if (exp10 < 0 || static_cast<int64_t>(sig.size()) + exp10 > 16)
      return Fail("an integer of at most 2^53");
    for (char c : sig) v = v * 10 + static_cast<uint64_t>(c - '0');
    for (int k = 0; k < exp10; ++k) v *= 10;
    if (v > kMax) return Fail("an integer of at most 2^53");
  }
  *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

bool JsonCursor::IntArray(std::vector<int64_t>* out) {
  if (!BeginArray()) return false;
  const char* p = text_.data();
  const size_t n = text_.size();
  size_t i = pos_;
  auto space = [&] {
    while (i < n &&
           (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
      ++i;
  };
  auto close = [&] {
    pos_ = i + 1;
    open_.pop_back();
    first_.pop_back();
    return true;
  };
  space();
  if (i < n && p[i] == ']') return close();
  for (;;) {
    space();
    const size_t at = i;
    const bool negative = i < n && p[i] == '-';
    if (negative) ++i;
    const size_t digits = i;
    int64_t v = 0;
    while (i < n && p[i] >= '0' && p[i] <= '9' && i - digits < 15)
      v = v * 10 + (p[i++] - '0');
    const bool plain =
        i > digits && (i >= n || (p[i] != '.' && p[i] != 'e' && p[i] != 'E' &&
                                  (p[i] < '0' || p[i] > '9')));
    if (plain) {
      out->push_back(negative ? -v : v);
    } else {  // the general path (it also says what is wrong)
      pos_ = at;
      if (!Int(&v)) return false;
      out->push_back(v);
      i = pos_;
    }
    space();
    if (i < n && p[i] == ',') {
      ++i;
      continue;
    }
    if (i < n && p[i] == ']') return close();
    pos_ = i;
    return Fail("',' or ']'");
  }
}

bool JsonCursor::Skip() {
  const size_t base = open_.size();
  do {
    switch (Peek()) {
      case Type::kObject:
        BeginObject();
        break;
      case Type::kArray:
        BeginArray();
        break;
      case Type::kString:
        String(nullptr);
        break;
      case Type::kNumber: {
        std::string_view number;  // not converted: any JSON number is skipped
        ScanNumber(&number);
        break;
      }
      case Type::kBool:
        Bool(nullptr);
        break;
      case Type::kNull:
        Null();
        break;
      case Type::kBad:
        return Fail("a value");
    }
    // After a value (or an opened container): to the next value to read,
    // closing every container that has no more members.
    while (ok() && open_.size() > base) {
      bool more = open_.back() == '{' ? NextKey(nullptr) : NextElement();
      if (more) break;
    }
  } while (ok() && open_.size() > base);
  return ok();
}

bool JsonCursor::AtEnd() {
  if (!ok()) return false;
  SkipSpace();
  return pos_ == text_.size() || Fail("the end of the text");
}

}  // namespace webprof
