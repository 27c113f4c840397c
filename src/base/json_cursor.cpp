#include "base/json_cursor.h"

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

size_t JsonCursor::ContentEnd(size_t i) const {
  const char* p = text_.data();
  const size_t n = text_.size();
  while (n - i >= json_scan::kScanRoom) {
    const unsigned run = json_scan::StringRun8(p + i);
    i += run;
    if (run < 8) return i;
  }
  while (i < n && p[i] != '"' && p[i] != '\\' &&
         static_cast<unsigned char>(p[i]) >= 0x20)
    ++i;
  return i;
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

bool JsonCursor::Open(uint8_t kind) {
  if (depth_ >= kMaxDepth) return Fail("less nesting");
  ++pos_;
  open_[depth_++] = kind | kFirst;
  return true;
}

bool JsonCursor::BeginObject() {
  return Peek() == Type::kObject ? Open(kInObject) : Fail("an object");
}

bool JsonCursor::BeginArray() {
  return Peek() == Type::kArray ? Open(0) : Fail("an array");
}

// Past the closing bracket (more = false, container popped) or past the
// comma before the next member (more = true).
bool JsonCursor::Separator(char close, bool* more) {
  *more = false;
  if (!ok()) return false;
  const bool object = close == '}';
  if (depth_ == 0 || bool(open_[depth_ - 1] & kInObject) != object)
    return Fail(object ? "to be inside an object" : "to be in an array");
  SkipSpace();
  if (pos_ >= text_.size()) return Fail(object ? "'}'" : "']'");
  uint8_t& top = open_[depth_ - 1];
  if (text_[pos_] == close) {
    ++pos_;
    --depth_;
    return true;
  }
  if (!(top & kFirst)) {
    if (text_[pos_] != ',') return Fail(object ? "',' or '}'" : "',' or ']'");
    ++pos_;
  }
  top &= ~kFirst;
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

bool JsonCursor::String(std::string* out) {
  if (Peek() != Type::kString) return Fail("a string");
  if (out) out->clear();
  ++pos_;
  while (pos_ < text_.size()) {
    size_t run = pos_;
    pos_ = ContentEnd(pos_);
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
  const size_t end = ContentEnd(start);
  if (end < text_.size() && text_[end] == '"') {
    *out = text_.substr(start, end - start);
    pos_ = end + 1;
    return true;
  }
  if (!String(scratch)) return false;
  *out = *scratch;
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

bool JsonCursor::SkipString() {
  // Validates as String() does (escapes, no control character) without
  // decoding: a skipped string is read once.
  const char* p = text_.data();
  const size_t n = text_.size();
  size_t i = pos_ + 1;
  while ((i = ContentEnd(i)) < n) {
    const unsigned char c = static_cast<unsigned char>(p[i]);
    if (c == '"') {
      pos_ = i + 1;
      return true;
    }
    if (c < 0x20) {
      pos_ = i;
      return Fail("no control character in a string");
    }
    if (i + 1 >= n) break;  // c is a backslash
    const char e = p[i + 1];
    i += 2;
    if (e == 'u') {
      for (int k = 0; k < 4; ++k, ++i) {
        if (i >= n || HexValue(p[i]) < 0) {
          pos_ = i;
          return Fail("4 hex digits after \\u");
        }
      }
    } else if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' &&
               e != 'n' && e != 'r' && e != 't') {
      pos_ = i;
      return Fail("a valid escape");
    }
  }
  pos_ = n;
  return Fail("'\"' closing the string");
}

bool JsonCursor::Skip() {
  if (!ok()) return false;
  SkipSpace();
  // A string alone (V8's scriptId) needs no container bookkeeping.
  if (pos_ < text_.size() && text_[pos_] == '"') return SkipString();
  const char* p = text_.data();
  const size_t n = text_.size();
  // The containers opened inside this value, one bit each (1: an object),
  // on the stack: no allocation, no per-member bookkeeping.
  uint64_t objects[kMaxDepth / 64] = {};
  size_t depth = 0;
  const size_t room = kMaxDepth - depth_;
  size_t i = pos_;
  auto space = [&] {
    while (i < n &&
           (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
      ++i;
  };
  auto fail = [&](const char* what) {
    pos_ = i;
    return Fail(what);
  };
  auto in_object = [&] {
    return (objects[(depth - 1) / 64] >> ((depth - 1) % 64)) & 1;
  };
  auto key = [&] {  // a member's key and its ':'
    space();
    if (i >= n || p[i] != '"') return fail("a key string");
    pos_ = i;
    if (!SkipString()) return false;
    i = pos_;
    space();
    if (i >= n || p[i] != ':') return fail("':'");
    ++i;
    return true;
  };
  auto word = [&](std::string_view w, const char* what) {
    if (text_.substr(i, w.size()) != w) return fail(what);
    i += w.size();
    return true;
  };
  for (;;) {
    space();  // a value starts here
    if (i >= n) return fail("a value");
    const char c = p[i];
    if (c == '{' || c == '[') {
      if (depth >= room) return fail("less nesting");
      const uint64_t bit = uint64_t{1} << (depth % 64);
      objects[depth / 64] =
          c == '{' ? objects[depth / 64] | bit : objects[depth / 64] & ~bit;
      ++depth;
      ++i;
      space();
      if (i < n && p[i] == (c == '{' ? '}' : ']')) {
        ++i;
        --depth;
      } else {
        if (c == '{' && !key()) return false;
        continue;  // the first member's value
      }
    } else if (c == '"') {
      pos_ = i;
      if (!SkipString()) return false;
      i = pos_;
    } else if (c == 't' || c == 'f') {
      if (!word(c == 't' ? "true" : "false", "true or false")) return false;
    } else if (c == 'n') {
      if (!word("null", "null")) return false;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      // An integer without a leading zero is passed here; any other number
      // (and any error) goes through the scanner. Not converted: any JSON
      // number is skipped, whatever its size.
      const size_t at = i, digits = i + (c == '-');
      i = digits;
      while (i < n && p[i] >= '0' && p[i] <= '9') ++i;
      if (i == digits || (p[digits] == '0' && i - digits > 1) ||
          (i < n && (p[i] == '.' || p[i] == 'e' || p[i] == 'E'))) {
        pos_ = at;
        std::string_view text;
        JsonNumberParts parts;
        if (!ScanNumberHere(&text, &parts)) return false;
        i = pos_;
      }
    } else {
      return fail("a value");
    }
    // After a value: close every container that has no more members.
    for (;;) {
      if (depth == 0) {
        pos_ = i;
        return true;
      }
      space();
      const bool object = in_object();
      if (i < n && p[i] == ',') {
        ++i;
        if (object && !key()) return false;
        break;
      }
      if (i < n && p[i] == (object ? '}' : ']')) {
        ++i;
        --depth;
        continue;
      }
      if (i >= n) return fail(object ? "'}'" : "']'");
      return fail(object ? "',' or '}'" : "',' or ']'");
    }
  }
}

bool JsonCursor::MatchAfterSpace(std::string_view bytes) {
  const size_t at = pos_;
  SkipSpace();
  if (pos_ == at || !ok()) return false;  // no space: Match() compared
  if (text_.substr(pos_, bytes.size()) != bytes) {
    pos_ = at;  // nothing consumed
    return false;
  }
  pos_ += bytes.size();
  return true;
}

bool JsonCursor::AtEnd() {
  if (!ok()) return false;
  SkipSpace();
  return pos_ == text_.size() || Fail("the end of the text");
}

}  // namespace webprof
