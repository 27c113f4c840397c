#include "symbolicate/json_reader.h"

namespace webprof {

void JsonReader::Fail(const char* what) {
  if (!error_.empty()) return;
  error_ = std::string(what) + " at byte " + std::to_string(pos_);
  pos_ = text_.size();
}

void JsonReader::SkipSpace() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
    ++pos_;
  }
}

bool JsonReader::Expect(char c, const char* what) {
  SkipSpace();
  if (pos_ < text_.size() && text_[pos_] == c) {
    ++pos_;
    return true;
  }
  Fail(what);
  return false;
}

JsonReader::Kind JsonReader::Peek() {
  SkipSpace();
  if (!ok() || pos_ >= text_.size()) return Kind::kEnd;
  switch (text_[pos_]) {
    case '{':
      return Kind::kObject;
    case '[':
      return Kind::kArray;
    case '"':
      return Kind::kString;
    case 't':
    case 'f':
      return Kind::kBool;
    case 'n':
      return Kind::kNull;
    default:
      return Kind::kNumber;
  }
}

bool JsonReader::BeginObject() {
  if (depth_ >= kMaxDepth) {
    Fail("JSON nested too deeply");
    return false;
  }
  if (!Expect('{', "expected an object")) return false;
  first_ |= uint64_t{1} << ++depth_;
  return true;
}

bool JsonReader::BeginArray() {
  if (depth_ >= kMaxDepth) {
    Fail("JSON nested too deeply");
    return false;
  }
  if (!Expect('[', "expected an array")) return false;
  first_ |= uint64_t{1} << ++depth_;
  return true;
}

bool JsonReader::NextKey(std::string* key) {
  if (!ok() || depth_ == 0) return false;
  SkipSpace();
  const uint64_t bit = uint64_t{1} << depth_;
  if (pos_ < text_.size() && text_[pos_] == '}') {
    ++pos_;
    first_ &= ~bit;
    --depth_;
    return false;
  }
  if (!(first_ & bit) && !Expect(',', "expected ',' or '}'")) return false;
  first_ &= ~bit;
  std::string_view k;
  std::string scratch;
  if (!String(&k, &scratch)) return false;
  key->assign(k.data(), k.size());
  return Expect(':', "expected ':'");
}

bool JsonReader::NextElement() {
  if (!ok() || depth_ == 0) return false;
  SkipSpace();
  const uint64_t bit = uint64_t{1} << depth_;
  if (pos_ < text_.size() && text_[pos_] == ']') {
    ++pos_;
    first_ &= ~bit;
    --depth_;
    return false;
  }
  if (!(first_ & bit) && !Expect(',', "expected ',' or ']'")) return false;
  first_ &= ~bit;
  return true;
}

namespace {
int Hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
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
}  // namespace

bool JsonReader::String(std::string_view* out, std::string* scratch) {
  if (!Expect('"', "expected a string")) return false;
  const size_t start = pos_;
  // Fast case: no escape before the closing quote.
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '"') {
      *out = text_.substr(start, pos_++ - start);
      return true;
    }
    if (c == '\\') break;
    if (static_cast<unsigned char>(c) < 0x20) {
      Fail("control character in a string");
      return false;
    }
    ++pos_;
  }
  scratch->assign(text_.data() + start, pos_ - start);
  while (pos_ < text_.size()) {
    char c = text_[pos_++];
    if (c == '"') {
      *out = *scratch;
      return true;
    }
    if (static_cast<unsigned char>(c) < 0x20) {
      Fail("control character in a string");
      return false;
    }
    if (c != '\\') {
      scratch->push_back(c);
      continue;
    }
    if (pos_ >= text_.size()) break;
    char e = text_[pos_++];
    switch (e) {
      case '"':
      case '\\':
      case '/':
        scratch->push_back(e);
        break;
      case 'b':
        scratch->push_back('\b');
        break;
      case 'f':
        scratch->push_back('\f');
        break;
      case 'n':
        scratch->push_back('\n');
        break;
      case 'r':
        scratch->push_back('\r');
        break;
      case 't':
        scratch->push_back('\t');
        break;
      case 'u': {
        auto hex4 = [&](uint32_t* v) {
          if (pos_ + 4 > text_.size()) return false;
          *v = 0;
          for (int i = 0; i < 4; ++i) {
            int h = Hex(text_[pos_ + i]);
            if (h < 0) return false;
            *v = *v << 4 | uint32_t(h);
          }
          pos_ += 4;
          return true;
        };
        uint32_t cp;
        if (!hex4(&cp)) {
          Fail("invalid \\u escape");
          return false;
        }
        if (cp >= 0xD800 && cp < 0xDC00 && pos_ + 1 < text_.size() &&
            text_[pos_] == '\\' && text_[pos_ + 1] == 'u') {
          size_t save = pos_;
          pos_ += 2;
          uint32_t lo;
          if (hex4(&lo) && lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else {
            pos_ = save;
          }
        }
        if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;  // lone surrogate
        AppendUtf8(cp, scratch);
        break;
      }
      default:
        Fail("invalid escape in a string");
        return false;
    }
  }
  Fail("unterminated string");
  return false;
}

void JsonReader::SkipNumber() {
  const size_t start = pos_;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
        c == 'e' || c == 'E')
      ++pos_;
    else
      break;
  }
  if (pos_ == start) Fail("unexpected character");
}

bool JsonReader::Int(int64_t* out) {
  // Integer syntax only (no fraction or exponent): what source maps use, and
  // no strtod (whose float code would weigh more in Wasm than this reader).
  SkipSpace();
  const size_t start = pos_;
  bool negative = pos_ < text_.size() && text_[pos_] == '-';
  if (negative) ++pos_;
  uint64_t v = 0;
  size_t digits = 0;
  while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
    v = v * 10 + uint64_t(text_[pos_++] - '0');
    if (++digits > 15) break;
  }
  char next = pos_ < text_.size() ? text_[pos_] : ' ';
  if (digits == 0 || digits > 15 || next == '.' || next == 'e' || next == 'E' ||
      (next >= '0' && next <= '9')) {
    pos_ = start;
    Fail("expected an integer");
    return false;
  }
  *out = negative ? -int64_t(v) : int64_t(v);
  return true;
}

bool JsonReader::Literal(std::string_view word) {
  if (text_.substr(pos_, word.size()) != word) {
    Fail("unexpected character");
    return false;
  }
  pos_ += word.size();
  return true;
}

bool JsonReader::Null() {
  if (Peek() != Kind::kNull) return false;
  return Literal("null");
}

void JsonReader::Skip() {
  std::string key, scratch;
  std::string_view s;
  switch (Peek()) {
    case Kind::kObject:
      if (BeginObject())
        while (NextKey(&key)) Skip();
      break;
    case Kind::kArray:
      if (BeginArray())
        while (NextElement()) Skip();
      break;
    case Kind::kString:
      String(&s, &scratch);
      break;
    case Kind::kBool:
      if (text_[pos_] == 't')
        Literal("true");
      else
        Literal("false");
      break;
    case Kind::kNull:
      Literal("null");
      break;
    case Kind::kNumber:
      SkipNumber();
      break;
    case Kind::kEnd:
      Fail("unexpected end of JSON");
      break;
  }
}

bool JsonReader::AtEnd() {
  SkipSpace();
  return ok() && pos_ == text_.size();
}

}  // namespace webprof
