#include "source/js_tokenizer.h"

#include <algorithm>
#include <cstring>

namespace webprof {
namespace {

bool IsNameStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$' || c == '\\' || c >= 0x80;
}
bool IsNamePart(unsigned char c) {
  return IsNameStart(c) || (c >= '0' && c <= '9');
}
bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }

// Operators longest first so the greedy match is right.
constexpr const char* kOperators[] = {
    ">>>=", "...",  "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=",
    "||=",  "?\?=", "=>",  "==",  "!=",  "<=",  ">=",  "&&",  "||",
    "??",   "?.",   "++",  "--",  "+=",  "-=",  "*=",  "/=",  "%=",
    "&=",   "|=",   "^=",  "**",  "<<",  ">>"};

// Names after which a `/` starts a regular expression, not a division.
constexpr const char* kRegexAfterNames[] = {
    "return", "typeof", "instanceof", "in",    "of",
    "new",    "delete", "void",       "throw", "case",
    "do",     "else",   "yield",      "await", "extends"};

// Walks the source byte by byte keeping the 1-based line and UTF-16 column.
class Cursor {
 public:
  Cursor(std::string_view s, SourcePosition base) : s_(s), pos_(base) {}
  bool done() const { return i_ >= s_.size(); }
  unsigned char peek(size_t ahead = 0) const {
    return i_ + ahead < s_.size() ? static_cast<unsigned char>(s_[i_ + ahead])
                                  : 0;
  }
  uint32_t offset() const { return static_cast<uint32_t>(i_); }
  SourcePosition pos() const { return pos_; }
  // True if a line terminator starts here (LF, CR, U+2028, U+2029).
  bool AtLineTerminator() const {
    unsigned char c = peek();
    return c == '\n' || c == '\r' ||
           (c == 0xE2 && peek(1) == 0x80 &&
            (peek(2) == 0xA8 || peek(2) == 0xA9));
  }
  // Advances over one character (a whole line terminator or UTF-8 sequence).
  void Next() {
    unsigned char c = peek();
    if (c == '\n' || c == '\r') {
      i_ += (c == '\r' && peek(1) == '\n') ? 2 : 1;
      NewLine();
    } else if (AtLineTerminator()) {
      i_ += 3;
      NewLine();
    } else if (c < 0x80) {
      ++i_;
      ++pos_.column;
    } else {
      size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      // Astral characters are two UTF-16 code units.
      pos_.column += n == 4 ? 2 : 1;
      i_ += n;
      if (i_ > s_.size()) i_ = s_.size();
    }
  }
  // Next() for the common case: an ASCII byte that ends no line.
  void NextFast() {
    unsigned char c = peek();
    if (c < 0x80 && c != '\n' && c != '\r') {
      ++i_;
      ++pos_.column;
    } else {
      Next();
    }
  }
  void Skip(size_t ascii_bytes) {
    i_ += ascii_bytes;
    pos_.column += static_cast<uint32_t>(ascii_bytes);
  }

 private:
  void NewLine() {
    ++pos_.line;
    pos_.column = 1;
  }
  std::string_view s_;
  size_t i_ = 0;
  SourcePosition pos_;
};

class Tokenizer {
 public:
  Tokenizer(std::string_view s, SourcePosition base,
            const TokenizerLimits& limits, std::vector<Token>* out)
      : s_(s), c_(s, base), limits_(limits), out_(*out) {}

  Status Run() {
    if (c_.peek() == '#' && c_.peek(1) == '!') SkipLineComment();
    while (true) {
      if (!SkipSpaceAndComments()) return Status::kSourceUnscannable;
      if (c_.done()) break;
      if (out_.size() >= limits_.max_tokens) return Status::kSourceTooLarge;
      if (!NextToken()) return Status::kSourceUnscannable;
    }
    return stack_.empty() ? Status::kOk : Status::kSourceUnscannable;
  }
  SourcePosition end() const { return c_.pos(); }

 private:
  // Returns false on an unterminated block comment.
  bool SkipSpaceAndComments() {
    while (!c_.done()) {
      unsigned char ch = c_.peek();
      if (c_.AtLineTerminator()) {
        newline_ = true;
        c_.Next();
      } else if (ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f') {
        c_.NextFast();
      } else if (ch == 0xC2 && c_.peek(1) == 0xA0) {  // NBSP
        c_.Next();
      } else if (ch == 0xEF && c_.peek(1) == 0xBB && c_.peek(2) == 0xBF) {
        c_.Next();  // BOM
      } else if (ch == '/' && c_.peek(1) == '/') {
        SkipLineComment();
      } else if (ch == '<' && c_.peek(1) == '!' && c_.peek(2) == '-' &&
                 c_.peek(3) == '-') {
        SkipLineComment();  // `<!--`: an HTML-like comment (classic scripts)
      } else if (ch == '-' && c_.peek(1) == '-' && c_.peek(2) == '>' &&
                 (newline_ || out_.empty())) {
        SkipLineComment();  // `-->` first on a line: likewise
      } else if (ch == '/' && c_.peek(1) == '*') {
        c_.Skip(2);
        while (!(c_.peek() == '*' && c_.peek(1) == '/')) {
          if (c_.done()) return false;
          if (c_.AtLineTerminator()) newline_ = true;
          c_.Next();
        }
        c_.Skip(2);
      } else {
        break;
      }
    }
    return true;
  }
  void SkipLineComment() {
    while (!c_.done() && !c_.AtLineTerminator()) c_.NextFast();
  }

  bool NextToken() {
    Token t;
    t.begin = c_.offset();
    t.start = c_.pos();
    t.newline_before = newline_;
    newline_ = false;
    unsigned char ch = c_.peek();
    bool ok = true;
    if (IsNameStart(ch) || (ch == '#' && IsNameStart(c_.peek(1)))) {
      t.kind = TokenKind::kName;
      c_.Next();
      while (!c_.done() && IsNamePart(c_.peek())) c_.NextFast();
    } else if (IsDigit(ch) || (ch == '.' && IsDigit(c_.peek(1)))) {
      t.kind = TokenKind::kNumber;
      ScanNumber();
    } else if (ch == '\'' || ch == '"') {
      t.kind = TokenKind::kString;
      ok = ScanString(ch);
    } else if (ch == '`') {
      t.kind = TokenKind::kTemplate;
      c_.Next();
      ok = ScanTemplateRest(&t);
    } else if (ch == '}' && !template_braces_.empty() &&
               template_braces_.back() == stack_.size()) {
      // Closes a `${` substitution: the template continues.
      t.kind = TokenKind::kTemplate;
      t.closes = true;
      template_braces_.pop_back();
      c_.Next();
      ok = ScanTemplateRest(&t);
    } else if (ch == '/' && RegexAllowed()) {
      t.kind = TokenKind::kRegex;
      ok = ScanRegex();
    } else {
      t.kind = TokenKind::kPunct;
      ScanPunct();
      t.opens = ch == '(' || ch == '[' || ch == '{';
      t.closes = ch == ')' || ch == ']' || ch == '}';
    }
    if (!ok) return false;
    t.end = c_.offset();
    t.stop = c_.pos();
    return Push(t);
  }

  // Records bracket pairing and the enclosing opener. A template middle
  // closes its piece and opens the next: `match` of a piece first names its
  // opener, then is overwritten with the piece that closes it, so following
  // `match` from a head walks the chain forward to the tail.
  bool Push(Token t) {
    uint32_t index = static_cast<uint32_t>(out_.size());
    if (t.closes) {
      if (stack_.empty()) return false;
      uint32_t open = stack_.back();
      const Token& o = out_[open];
      if (t.kind == TokenKind::kTemplate) {
        if (o.kind != TokenKind::kTemplate) return false;
      } else {
        char want = s_[t.begin] == ')' ? '(' : s_[t.begin] == ']' ? '[' : '{';
        if (o.kind != TokenKind::kPunct || s_[o.begin] != want) return false;
      }
      out_[open].match = index;
      t.match = open;
      stack_.pop_back();
    }
    t.parent = stack_.empty() ? Token::kNone : stack_.back();
    if (t.opens) {
      if (stack_.size() >= limits_.max_depth) return false;
      stack_.push_back(index);
      if (t.kind == TokenKind::kTemplate)
        template_braces_.push_back(static_cast<uint32_t>(stack_.size()));
    }
    out_.push_back(t);
    return true;
  }

  void ScanNumber() {
    unsigned char prev = 0;
    bool hex = c_.peek() == '0' && (c_.peek(1) | 0x20) == 'x';
    while (!c_.done()) {
      unsigned char ch = c_.peek();
      bool exp_sign =
          (ch == '+' || ch == '-') && !hex && (prev == 'e' || prev == 'E');
      if (!(IsNamePart(ch) || ch == '.' || exp_sign) || ch >= 0x80) break;
      prev = ch;
      c_.Next();
    }
  }
  bool ScanString(unsigned char quote) {
    c_.Next();
    while (true) {
      if (c_.done() || c_.AtLineTerminator()) return false;
      unsigned char ch = c_.peek();
      c_.NextFast();
      if (ch == quote) return true;
      if (ch == '\\' && !c_.done()) c_.Next();  // also a line continuation
    }
  }
  // After "`" or the "}" closing a substitution: up to "`" or "${".
  bool ScanTemplateRest(Token* t) {
    while (!c_.done()) {
      unsigned char ch = c_.peek();
      if (ch == '`') {
        c_.Next();
        return true;
      }
      if (ch == '$' && c_.peek(1) == '{') {
        c_.Skip(2);
        t->opens = true;
        return true;
      }
      c_.Next();
      if (ch == '\\' && !c_.done()) c_.Next();
    }
    return false;
  }
  bool ScanRegex() {
    c_.Next();
    bool in_class = false;
    while (true) {
      if (c_.done() || c_.AtLineTerminator()) return false;
      unsigned char ch = c_.peek();
      c_.Next();
      if (ch == '\\') {
        if (c_.done() || c_.AtLineTerminator()) return false;
        c_.Next();
      } else if (ch == '[') {
        in_class = true;
      } else if (ch == ']') {
        in_class = false;
      } else if (ch == '/' && !in_class) {
        break;
      }
    }
    while (!c_.done() && IsNamePart(c_.peek())) c_.Next();  // flags
    return true;
  }
  void ScanPunct() {
    char first = static_cast<char>(c_.peek());
    for (const char* op : kOperators) {
      if (op[0] != first) continue;
      size_t n = std::strlen(op);
      if (s_.compare(c_.offset(), n, op) == 0) {
        c_.Skip(n);
        return;
      }
    }
    c_.Next();
  }
  std::string_view TextOf(const Token& t) const {
    return s_.substr(t.begin, t.end - t.begin);
  }
  // The previous-token heuristic: `/` after a value is division.
  bool RegexAllowed() const {
    if (out_.empty()) return true;
    const Token& p = out_.back();
    std::string_view text = TextOf(p);
    switch (p.kind) {
      case TokenKind::kName:
        // `a.return / 2`: after `.` a keyword is a property, a value.
        if (out_.size() >= 2 &&
            out_[out_.size() - 2].kind == TokenKind::kPunct &&
            (TextOf(out_[out_.size() - 2]) == "." ||
             TextOf(out_[out_.size() - 2]) == "?."))
          return false;
        for (const char* k : kRegexAfterNames)
          if (text == k) return true;
        return false;
      case TokenKind::kPunct:
        // `if (a) /re/.test(s)`: a control statement's `)` ends no value.
        if (text == ")") return ClosesControlHead(p);
        // `}` usually ends a block, after which a statement (maybe a regex
        // literal) starts; `++`/`--` are postfix far more often than not.
        return !(text == "]" || text == "++" || text == "--");
      default:
        return false;
    }
  }

  // `)` of `if (`, `while (`, `for (`, `for await (`, `with (`.
  bool ClosesControlHead(const Token& close) const {
    if (close.match == Token::kNone || close.match == 0) return false;
    const Token& k = out_[close.match - 1];
    if (k.kind != TokenKind::kName) return false;
    std::string_view w = TextOf(k);
    if (w == "await" && close.match >= 2)
      w = TextOf(out_[close.match - 2]) == "for" ? "for" : w;
    bool property = close.match >= 2 &&
                    out_[close.match - 2].kind == TokenKind::kPunct &&
                    TextOf(out_[close.match - 2]) == ".";
    return !property &&
           (w == "if" || w == "while" || w == "for" || w == "with");
  }

  std::string_view s_;
  Cursor c_;
  TokenizerLimits limits_;
  std::vector<Token>& out_;
  std::vector<uint32_t> stack_;  // open bracket token indexes
  // Stack depths at which a `}` closes a template substitution.
  std::vector<uint32_t> template_braces_;
  bool newline_ = false;
};

}  // namespace

Status Tokenize(std::string_view source, SourcePosition base,
                const TokenizerLimits& limits, std::vector<Token>* out,
                SourcePosition* end) {
  out->clear();
  // About one token per 4-5 bytes of typical code: one allocation, not many.
  out->reserve(std::min<size_t>(source.size() / 4 + 16, limits.max_tokens));
  if (source.size() >= 0xFFFFFFF0u) return Status::kSourceTooLarge;
  if (base.line == 0) base.line = 1;
  if (base.column == 0) base.column = 1;
  Tokenizer t(source, base, limits, out);
  Status s = t.Run();
  if (s != Status::kOk) out->clear();
  if (end) *end = t.end();
  return s;
}

void AdvancePosition(std::string_view text, SourcePosition* pos) {
  Cursor c(text, *pos);
  while (!c.done()) c.NextFast();
  *pos = c.pos();
}

uint32_t HashbangEnd(std::string_view source) {
  if (source.size() < 2 || source[0] != '#' || source[1] != '!') return 0;
  Cursor c(source, {});
  while (!c.done() && !c.AtLineTerminator()) c.NextFast();
  if (!c.done()) c.Next();  // the whole terminator, CRLF included
  return c.offset();
}

}  // namespace webprof
