// A small JavaScript tokenizer for locating function definitions.
//
// Problem: to map a captured execution position to the function that holds
// it, the source scanner needs tokens whose boundaries are right even where
// JavaScript is hard to split: string and template literals (templates nest
// through `${ }`), comments, and `/` that is either division or a regular
// expression. It does not need a full parser, so this tokenizer decides
// regex-vs-division from the previous significant token (the classic
// heuristic: after a value - name, literal, `)`, `]` - it is division) and
// pairs every bracket, template substitution included, while tokenizing.
//
// Positions: lines and columns are 1-based like the spec's ProfilerFrame.
// Columns count UTF-16 code units (what V8 and SpiderMonkey report), so a
// 4-byte UTF-8 sequence advances the column by 2. Line terminators are LF,
// CR, CRLF, U+2028 and U+2029. Input that cannot be tokenized (unterminated
// literal or comment, unbalanced brackets, nesting past the limit) gives
// kSourceUnscannable and no partial result.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace webprof {

enum class TokenKind : uint8_t {
  kName,      // identifier or keyword; also `#private` names
  kPunct,     // operator or bracket
  kString,    // '...' or "..."
  kNumber,    //
  kRegex,     // /body/flags
  kTemplate,  // `...` whole, or a piece: head `..${, middle }..${, tail }..`
};

struct SourcePosition {
  uint32_t line = 0;    // 1-based
  uint32_t column = 0;  // 1-based, UTF-16 code units
  friend bool operator<(SourcePosition a, SourcePosition b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  }
  friend bool operator==(SourcePosition a, SourcePosition b) {
    return a.line == b.line && a.column == b.column;
  }
  friend bool operator<=(SourcePosition a, SourcePosition b) {
    return !(b < a);
  }
};

struct Token {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  TokenKind kind;
  bool opens = false;           // ( [ { or a template head/middle
  bool closes = false;          // ) ] } or a template middle/tail
  bool newline_before = false;  // a line terminator since the previous token
  uint32_t begin = 0;           // byte offset into the source
  uint32_t end = 0;             // byte offset one past the token
  SourcePosition start;         // position of the first character
  SourcePosition stop;          // position just past the last character
  uint32_t match = kNone;       // opener <-> its closer (template: next piece)
  uint32_t parent = kNone;      // innermost enclosing opener
};

struct TokenizerLimits {
  uint32_t max_tokens = 1u << 22;  // ~150 MB of tokens at most
  uint32_t max_depth = 1024;       // bracket nesting
};

// Advances `pos` over `text` counting as the tokenizer does (UTF-16
// columns; LF, CR, CRLF, U+2028/9 end lines): for text between scripts.
void AdvancePosition(std::string_view text, SourcePosition* pos);

// The byte offset just past a hashbang's line (`#!…` and its line
// terminator, as the tokenizer skips it), 0 when `source` has none.
uint32_t HashbangEnd(std::string_view source);

// Appends the tokens of `source` to `out` (cleared first). The first
// character is at (base_line, base_column): inline <script> content starts
// mid-line in its document; later lines start at column 1.
// `end`, when given, receives the position just past the last character.
Status Tokenize(std::string_view source, SourcePosition base,
                const TokenizerLimits& limits, std::vector<Token>* out,
                SourcePosition* end = nullptr);

// Reading a token list by index (shared by the function finder and the probe
// site finder): an index past the end reads as no token, so look-ahead and
// look-behind need no bounds checks at the call site.
class TokenReader {
 protected:
  TokenReader(std::string_view s, const std::vector<Token>& t) : s_(s), t_(t) {}
  std::string_view Text(uint32_t i) const {
    return i < t_.size() ? s_.substr(t_[i].begin, t_[i].end - t_[i].begin)
                         : std::string_view();
  }
  bool IsName(uint32_t i, std::string_view w) const {
    return i < t_.size() && t_[i].kind == TokenKind::kName && Text(i) == w;
  }
  bool IsPunct(uint32_t i, std::string_view w) const {
    return i < t_.size() && t_[i].kind == TokenKind::kPunct && Text(i) == w;
  }
  bool IsKind(uint32_t i, TokenKind k) const {
    return i < t_.size() && t_[i].kind == k;
  }

  std::string_view s_;
  const std::vector<Token>& t_;
};

}  // namespace webprof
