// The statement grammar at token level (see statement_grammar.h).
#include "source/statement_grammar.h"

namespace webprof {
namespace {

constexpr uint32_t kNone = Token::kNone;

// Names that cannot end an expression: after one, a line break never ends
// the statement (`var\nx = 1`, `typeof\nx`).
constexpr const char* kOperatorNames[] = {
    "typeof",   "void",   "delete", "new",     "in",     "instanceof", "await",
    "case",     "do",     "else",   "extends", "var",    "let",        "const",
    "function", "class",  "import", "export",  "if",     "for",        "while",
    "with",     "switch", "try",    "catch",   "finally"};
// Restricted productions: a line break right after one ends the statement.
constexpr const char* kRestrictedNames[] = {"return", "throw", "break",
                                            "continue", "yield"};

}  // namespace

bool StatementGrammar::IsAnyName(uint32_t i, const char* const* words,
                                 size_t n) const {
  for (size_t k = 0; k < n; ++k)
    if (IsName(i, words[k])) return true;
  return false;
}

bool StatementGrammar::IsProperty(uint32_t i) const {
  return i > 0 && (IsPunct(i - 1, ".") || IsPunct(i - 1, "?."));
}

uint32_t StatementGrammar::StepOver(uint32_t j) const {
  // A function or class expression's body may follow a line break
  // (`class extends B\n{`): skipped whole, not token by token.
  if ((IsName(j, "function") || IsName(j, "class")) && !IsProperty(j))
    return DeclarationEnd(j);
  return t_[j].opens ? GroupEnd(j) : j;
}

uint32_t StatementGrammar::ExpressionEnd(uint32_t k) const {
  uint32_t last = kNone;
  int conditionals = 0;
  for (uint32_t j = k; j < t_.size();) {
    const Token& t = t_[j];
    if (t.closes || IsPunct(j, ",") || IsPunct(j, ";")) return last;
    if (IsPunct(j, ":") && conditionals-- == 0) return last;
    if (IsPunct(j, "?")) ++conditionals;
    if (last != kNone && t.newline_before && LineBreakEnds(last, j))
      return last;
    if ((last = StepOver(j)) == kNone) return kNone;
    j = last + 1;
  }
  return last;
}

uint32_t StatementGrammar::StatementEnd(uint32_t k, int depth) const {
  if (k >= t_.size() || depth > kMaxStatementDepth) return kNone;
  const Token& t = t_[k];
  if (IsPunct(k, "{")) return t.match;
  if (IsPunct(k, ";")) return k;
  if (t.kind != TokenKind::kName) return SimpleEnd(k);
  std::string_view w = Text(k);
  if (IsPunct(k + 1, ":")) return StatementEnd(k + 2, depth + 1);  // label
  if (w == "if") {
    uint32_t c = GroupClose(k + 1, "(");
    if (c == kNone) return kNone;
    uint32_t e = StatementEnd(c + 1, depth + 1);
    if (e != kNone && IsName(e + 1, "else"))
      return StatementEnd(e + 2, depth + 1);
    return e;
  }
  if (w == "for" || w == "while" || w == "with") {
    uint32_t j = k + 1;
    if (w == "for" && IsName(j, "await")) ++j;
    uint32_t c = GroupClose(j, "(");
    return c == kNone ? kNone : StatementEnd(c + 1, depth + 1);
  }
  if (w == "do") {
    uint32_t e = StatementEnd(k + 1, depth + 1);
    if (e == kNone || !IsName(e + 1, "while")) return kNone;
    uint32_t c = GroupClose(e + 2, "(");
    if (c == kNone) return kNone;
    return IsPunct(c + 1, ";") ? c + 1 : c;  // `;` optional even inline
  }
  if (w == "try") {
    uint32_t e = GroupClose(k + 1, "{");
    if (e != kNone && IsName(e + 1, "catch")) {
      uint32_t j = e + 2;
      if (IsPunct(j, "(")) {
        uint32_t c = GroupClose(j, "(");
        j = c == kNone ? kNone : c + 1;
      }
      e = GroupClose(j, "{");
    }
    if (e != kNone && IsName(e + 1, "finally")) e = GroupClose(e + 2, "{");
    return e;
  }
  if (w == "switch") {
    uint32_t c = GroupClose(k + 1, "(");
    return c == kNone ? kNone : GroupClose(c + 1, "{");
  }
  if (w == "function" || w == "class" ||
      (w == "async" && IsName(k + 1, "function") && !t_[k + 1].newline_before))
    return DeclarationEnd(k);
  return SimpleEnd(k);
}

uint32_t StatementGrammar::GroupClose(uint32_t i, std::string_view open) const {
  if (i == kNone || !IsPunct(i, open) || t_[i].match == kNone) return kNone;
  return t_[i].match;
}

uint32_t StatementGrammar::GroupEnd(uint32_t i) const {
  while (t_[i].opens && t_[i].match != kNone && t_[i].match > i)
    i = t_[i].match;
  return i;
}

uint32_t StatementGrammar::DeclarationEnd(uint32_t k) const {
  bool is_class = IsName(k, "class");
  for (uint32_t j = k + 1; j < t_.size(); ++j) {
    if (IsPunct(j, "{")) return t_[j].match;
    if (!is_class && IsPunct(j, "(")) {
      uint32_t c = GroupClose(j, "(");
      return c == kNone ? kNone : GroupClose(c + 1, "{");
    }
    if (t_[j].closes || IsPunct(j, ";")) return kNone;
    if (t_[j].opens) j = GroupEnd(j);
  }
  return kNone;
}

uint32_t StatementGrammar::SimpleEnd(uint32_t k) const {
  uint32_t last = kNone;
  for (uint32_t j = k; j < t_.size();) {
    const Token& t = t_[j];
    if (t.closes) return last;
    if (IsPunct(j, ";")) return j;
    if (last != kNone && t.newline_before && LineBreakEnds(last, j))
      return last;
    if ((last = StepOver(j)) == kNone) return kNone;
    j = last + 1;
  }
  return last;
}

bool StatementGrammar::LineBreakEnds(uint32_t prev, uint32_t next) const {
  if (IsAnyName(prev, kRestrictedNames,
                sizeof(kRestrictedNames) / sizeof(*kRestrictedNames)) &&
      !IsProperty(prev))
    return true;
  bool value = EndsValue(prev);
  if (IsPunct(next, "++") || IsPunct(next, "--")) return value;
  if (IsPunct(prev, "}") && t_[prev].match != kNone && t_[prev].match > 0 &&
      IsPunct(t_[prev].match - 1, "=>"))
    return !(IsPunct(next, ",") || IsPunct(next, ":"));
  return value && !Continues(next);
}
bool StatementGrammar::EndsValue(uint32_t i) const {
  const Token& t = t_[i];
  switch (t.kind) {
    case TokenKind::kPunct:
      return IsPunct(i, ")") || IsPunct(i, "]") || IsPunct(i, "}") ||
             IsPunct(i, "++") || IsPunct(i, "--");
    case TokenKind::kName:
      return IsProperty(i) ||
             !IsAnyName(i, kOperatorNames,
                        sizeof(kOperatorNames) / sizeof(*kOperatorNames));
    default:
      return true;
  }
}

bool StatementGrammar::Continues(uint32_t i) const {
  const Token& t = t_[i];
  if (t.kind == TokenKind::kTemplate) return true;
  if (t.kind == TokenKind::kName)
    return IsName(i, "in") || IsName(i, "instanceof");
  if (t.kind != TokenKind::kPunct) return false;
  return !(IsPunct(i, "{") || IsPunct(i, "!") || IsPunct(i, "~") ||
           IsPunct(i, "++") || IsPunct(i, "--"));
}

}  // namespace webprof
