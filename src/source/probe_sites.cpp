// FindProbeSites: function bodies from FindFunctions, loops from their
// keywords, and the end of an unbraced loop body from the statement grammar
// (see probe_sites.h for the design).
#include "source/probe_sites.h"

#include <algorithm>

namespace webprof {
namespace {

constexpr uint32_t kNone = Token::kNone;
// Statements nest at most this deep inside one unbraced loop body before the
// body is left without a check (recursion bound; real code nests a few).
constexpr int kMaxStatementDepth = 200;

// Names that cannot end an expression: after one, a line break never ends
// the statement (`var\nx = 1`, `typeof\nx`).
constexpr const char* kOperatorNames[] = {
    "typeof",   "void",   "delete", "new",     "in",     "instanceof", "await",
    "case",     "do",     "else",   "extends", "var",    "let",        "const",
    "function", "class",  "import", "export",  "if",     "for",        "while",
    "with",     "switch", "try",    "catch",   "finally"};
// Names before `(` or a template that make no call (`if (`, `return (`,
// `typeof (`, `async (x) =>`).
constexpr const char* kNotCallees[] = {
    "if",     "for",  "while",  "switch",   "catch", "with",       "return",
    "typeof", "void", "delete", "in",       "of",    "instanceof", "case",
    "do",     "else", "throw",  "function", "class", "extends",    "async"};
// Restricted productions: a line break right after one ends the statement.
constexpr const char* kRestrictedNames[] = {"return", "throw", "break",
                                            "continue", "yield"};

class SiteFinder : TokenReader {
 public:
  SiteFinder(std::string_view s, const std::vector<Token>& t,
             std::vector<uint32_t>* out, const ProbeSiteOptions& options)
      : TokenReader(s, t), out_(*out), options_(options) {}

  Status Run(const std::vector<FunctionDefinition>& functions) {
    if (options_.exit_checks) {
      MarkDeclaringBlocks();
      MarkCallingBlocks();
    }
    for (const FunctionDefinition& f : functions)
      if (f.body_brace != kNone) BodyCheck(f.body_brace);
    for (uint32_t i = 0; i < t_.size(); ++i) {
      if (options_.exit_checks && IsPunct(i, "=>") && !IsPunct(i + 1, "{"))
        ArrowBody(i + 1);
      if (t_[i].kind != TokenKind::kName || IsProperty(i)) continue;
      std::string_view w = Text(i);
      if (w == "for" || w == "while") {
        if (!do_while_.empty() && do_while_[i]) continue;
        uint32_t j = i + 1;
        if (w == "for" && IsName(j, "await")) ++j;
        if (IsPunct(j, "(") && t_[j].match != kNone) LoopBody(t_[j].match + 1);
      } else if (w == "do" && !IsPunct(i + 1, ":") && !IsMemberKey(i)) {
        // The body's end must be found: it tells which `while` is this
        // loop's and not a loop of its own.
        uint32_t end = StatementEnd(i + 1, 0);
        if (end == kNone || !IsName(end + 1, "while"))
          return Status::kSourceUnscannable;
        if (do_while_.empty()) do_while_.assign(t_.size(), false);
        do_while_[end + 1] = true;
        LoopBody(i + 1);
      }
    }
    return Status::kOk;
  }
  uint32_t unwrapped() const { return unwrapped_; }
  uint32_t unguarded() const { return unguarded_; }

  // The prelude offset and module syntax of ProbeSiteInfo.
  void ScriptInfo(ProbeSiteInfo* info) const {
    uint32_t k = 0, last = kNone;
    while (k < t_.size() && t_[k].kind == TokenKind::kString) {
      if (IsPunct(k + 1, ";")) {
        last = k + 1;
        k += 2;
      } else if (k + 1 < t_.size() && t_[k + 1].newline_before &&
                 LineBreakEnds(k, k + 1)) {
        last = k++;
      } else {
        break;
      }
    }
    if (last != kNone && IsPunct(last, ";"))
      info->prelude = t_[last].end;
    else if (k < t_.size())
      info->prelude = t_[k].begin;  // on its own line after a bare directive
    else
      info->prelude = static_cast<uint32_t>(s_.size());
    for (uint32_t i = 0; i < t_.size() && !info->module_syntax; ++i) {
      if (t_[i].parent != kNone || IsProperty(i)) continue;
      info->module_syntax =
          IsName(i, "export") ||
          (IsName(i, "import") && !IsPunct(i + 1, "(") && !IsPunct(i + 1, "."));
    }
  }

 private:
  bool IsAnyName(uint32_t i, const char* const* words, size_t n) const {
    for (size_t k = 0; k < n; ++k)
      if (IsName(i, words[k])) return true;
    return false;
  }
  // `a.for`, `a?.do`: a property name, not a keyword.
  bool IsProperty(uint32_t i) const {
    return i > 0 && (IsPunct(i - 1, ".") || IsPunct(i - 1, "?."));
  }
  // `do` as a member name in a class or object: `do(x) {}` (never a loop:
  // `do (x) {` cannot be followed by its `while`), `do = 1`, `do;`, `do }`.
  bool IsMemberKey(uint32_t i) const {
    if (IsPunct(i + 1, "=") || IsPunct(i + 1, "}") ||
        (IsPunct(i + 1, ";") && !IsName(i + 2, "while")))  // `do;while(x)`
      return true;
    return IsPunct(i + 1, "(") && t_[i + 1].match != kNone &&
           IsPunct(t_[i + 1].match + 1, "{");
  }
  void Emit(uint32_t offset, ProbeSiteKind kind) {
    out_.push_back(offset | static_cast<uint32_t>(kind) << kProbeSiteKindShift);
  }

  // After a body's `{` and its directive prologue ('use strict'; ...): a
  // string statement is a directive when `;`, `}` or automatic semicolon
  // insertion ends it; otherwise (`'a'\n.length`) it is an expression.
  void BodyCheck(uint32_t open) {
    uint32_t k = open + 1, last = kNone;
    while (k < t_.size() && t_[k].kind == TokenKind::kString) {
      if (IsPunct(k + 1, ";")) {
        last = k + 1;
        k += 2;
      } else if (IsPunct(k + 1, "}") ||
                 (k + 1 < t_.size() && t_[k + 1].newline_before &&
                  LineBreakEnds(k, k + 1))) {
        last = k;
        k += 1;
      } else {
        break;
      }
    }
    uint32_t at = t_[last == kNone ? open : last].end;
    if (last == kNone || IsPunct(last, ";"))
      Emit(at, ProbeSiteKind::kCheck);
    else
      Emit(at, ProbeSiteKind::kCheckAfterDirective);
    // Exit check: `try{` after the entry check, `}finally{check}` before
    // the body's `}` (same line: lines never move). ASI before that `}`
    // still applies to the body's last statement.
    uint32_t close = t_[open].match;
    if (!options_.exit_checks || close == kNone || k == close || !calls_[open])
      return;
    if (declares_.size() > open && declares_[open]) {
      ++unguarded_;
      return;
    }
    Emit(at, ProbeSiteKind::kOpenTry);
    Emit(t_[close].begin, ProbeSiteKind::kCloseTry);
  }

  // An arrow's expression body starting at `k` becomes a block body with an
  // entry and an exit check (`return(` keeps a body that starts on the next
  // line from ASI after `return`).
  void ArrowBody(uint32_t k) {
    uint32_t end = ExpressionEnd(k);
    if (end == kNone) {
      ++unguarded_;
      return;
    }
    bool calls = false;
    for (uint32_t j = k; j <= end && !calls; ++j) calls = RunsOtherCode(j);
    if (!calls) return;
    Emit(t_[k].begin, ProbeSiteKind::kOpenArrow);
    Emit(t_[end].end, ProbeSiteKind::kCloseArrow);
  }

  // The last token of the assignment expression starting at `k` (an arrow's
  // expression body), or kNone: it ends before a `,`, `;`, closer or a `:`
  // of no `?` of its own at its level, or at a line break where ASI applies.
  uint32_t ExpressionEnd(uint32_t k) const {
    uint32_t last = kNone;
    int conditionals = 0;
    for (uint32_t j = k; j < t_.size();) {
      const Token& t = t_[j];
      if (t.closes || IsPunct(j, ",") || IsPunct(j, ";")) return last;
      if (IsPunct(j, ":") && conditionals-- == 0) return last;
      if (IsPunct(j, "?")) ++conditionals;
      if (last != kNone && t.newline_before && LineBreakEnds(last, j))
        return last;
      if ((IsName(j, "function") || IsName(j, "class")) && !IsProperty(j)) {
        last = DeclarationEnd(j);
        if (last == kNone) return kNone;
        j = last + 1;
      } else if (t.opens) {
        last = GroupEnd(j);
        j = last + 1;
      } else {
        last = j++;
      }
    }
    return last;
  }

  // Whether token `j` may run code that is not this function's own straight
  // line: a call (`(` or a tagged template after a name that is no keyword,
  // a `)`, `]` or `?.`; not a parameter list), `new`, `await`, `yield`, or a
  // spread (iterators, getters). A body with none of these spends its time
  // in a few operators of its own: it is left without an exit check (that
  // time goes to its caller), which saves a check per call of the smallest,
  // most called functions. In doubt it counts.
  bool RunsOtherCode(uint32_t j) const {
    if (IsName(j, "new") || IsName(j, "await") || IsName(j, "yield"))
      return !IsProperty(j);
    if (IsPunct(j, "...")) return true;
    if (j == 0 || !(IsPunct(j, "(") || IsKind(j, TokenKind::kTemplate)))
      return false;
    if (IsPunct(j, "(") && t_[j].match != kNone &&
        IsPunct(t_[j].match + 1, "{"))
      return false;  // a method's parameters: `m(x) {`
    uint32_t p = j - 1;
    if (IsPunct(p, ")") || IsPunct(p, "]") || IsPunct(p, "?.")) return true;
    if (!IsKind(p, TokenKind::kName)) return false;
    if (IsProperty(p)) return true;
    if (p > 0 && IsName(p - 1, "function")) return false;  // `function f(`
    return !IsAnyName(p, kNotCallees,
                      sizeof(kNotCallees) / sizeof(*kNotCallees));
  }
  // Marks every bracket that encloses code running other code (above): a
  // function body `{` marked gets an exit check. Walking up stops at a
  // marked opener, whose enclosing ones are marked already.
  void MarkCallingBlocks() {
    calls_.assign(t_.size(), false);
    for (uint32_t j = 0; j < t_.size(); ++j) {
      if (!RunsOtherCode(j)) continue;
      for (uint32_t p = t_[j].parent; p != kNone && !calls_[p];
           p = t_[p].parent)
        calls_[p] = true;
    }
  }

  // Marks each `{` whose statement list declares a function directly
  // (`function g(){}`, `async function g(){}`): wrapped in a block, the
  // declaration would become lexical. A `function` keyword that starts a
  // statement follows `{`, `;`, `}`, `)` (sloppy `if (x) function g(){}`),
  // `:` (a label), `else`/`do`, or a line break; in doubt it counts as a
  // declaration (the body keeps its entry check, only the exit one goes).
  void MarkDeclaringBlocks() {
    declares_.assign(t_.size(), false);
    for (uint32_t i = 0; i < t_.size(); ++i) {
      if (!IsName(i, "function") || IsProperty(i)) continue;
      uint32_t k = i;
      if (k > 0 && IsName(k - 1, "async") && !t_[k].newline_before) --k;
      uint32_t p = t_[k].parent;
      if (p == kNone || !IsPunct(p, "{")) continue;
      bool starts = k == 0 || t_[k].newline_before || IsPunct(k - 1, "{") ||
                    IsPunct(k - 1, ";") || IsPunct(k - 1, "}") ||
                    IsPunct(k - 1, ")") || IsPunct(k - 1, ":") ||
                    IsName(k - 1, "else") || IsName(k - 1, "do");
      if (starts) declares_[p] = true;
    }
  }

  // The loop body statement starting at token `body`.
  void LoopBody(uint32_t body) {
    if (body >= t_.size()) return;
    if (IsPunct(body, "{")) {
      Emit(t_[body].end, ProbeSiteKind::kCheck);
      return;
    }
    uint32_t end = StatementEnd(body, 0);
    if (end == kNone) {
      ++unwrapped_;
      return;
    }
    Emit(t_[body].begin, ProbeSiteKind::kOpenBlock);
    Emit(t_[end].end, ProbeSiteKind::kCloseBlock);
  }

  // The last token of the statement starting at `k`, or kNone.
  uint32_t StatementEnd(uint32_t k, int depth) const {
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
        (w == "async" && IsName(k + 1, "function") &&
         !t_[k + 1].newline_before))
      return DeclarationEnd(k);
    return SimpleEnd(k);
  }

  // The closer of the group opened at `i` when `i` is `open`, else kNone.
  uint32_t GroupClose(uint32_t i, std::string_view open) const {
    if (i == kNone || !IsPunct(i, open) || t_[i].match == kNone) return kNone;
    return t_[i].match;
  }
  // The last token of a bracket group or of a whole template at `i`.
  uint32_t GroupEnd(uint32_t i) const {
    while (t_[i].opens && t_[i].match != kNone && t_[i].match > i)
      i = t_[i].match;
    return i;
  }
  // `function f() {}`, `class A extends B {}`: the body's `}`. Skipping to
  // the first `{` at this level also skips a heritage written over lines.
  uint32_t DeclarationEnd(uint32_t k) const {
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

  // An expression, declaration or jump statement: it ends at `;`, before
  // the closer of the enclosing group, or at a line break where automatic
  // semicolon insertion applies.
  uint32_t SimpleEnd(uint32_t k) const {
    uint32_t last = kNone;
    for (uint32_t j = k; j < t_.size();) {
      const Token& t = t_[j];
      if (t.closes) return last;
      if (IsPunct(j, ";")) return j;
      if (last != kNone && t.newline_before && LineBreakEnds(last, j))
        return last;
      if ((IsName(j, "function") || IsName(j, "class")) && !IsProperty(j)) {
        // An expression's body may follow a line break (`class extends B\n{`).
        last = DeclarationEnd(j);
        if (last == kNone) return kNone;
        j = last + 1;
      } else if (t.opens) {
        last = GroupEnd(j);
        j = last + 1;
      } else {
        last = j++;
      }
    }
    return last;
  }

  // Automatic semicolon insertion between `prev` and `next`, separated by a
  // line break: after a restricted production's keyword, before a postfix
  // `++`/`--`, after an arrow's block body unless the expression goes on
  // (`,`, the `:` of a conditional), and wherever `next` cannot continue the
  // expression that `prev` ends.
  bool LineBreakEnds(uint32_t prev, uint32_t next) const {
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
  bool EndsValue(uint32_t i) const {
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
  // Whether `i` can follow an expression on the next line and continue it:
  // an operator, `(`, `[`, `.`, a template (a tagged call), `in`.
  bool Continues(uint32_t i) const {
    const Token& t = t_[i];
    if (t.kind == TokenKind::kTemplate) return true;
    if (t.kind == TokenKind::kName)
      return IsName(i, "in") || IsName(i, "instanceof");
    if (t.kind != TokenKind::kPunct) return false;
    return !(IsPunct(i, "{") || IsPunct(i, "!") || IsPunct(i, "~") ||
             IsPunct(i, "++") || IsPunct(i, "--"));
  }

  std::vector<uint32_t>& out_;
  const ProbeSiteOptions& options_;
  std::vector<bool> do_while_;  // per token, once a `do` is seen: its `while`
  std::vector<bool> declares_;  // per `{`: declares a function directly
  std::vector<bool> calls_;     // per opener: encloses RunsOtherCode
  uint32_t unwrapped_ = 0;
  uint32_t unguarded_ = 0;
};

}  // namespace

Status FindProbeSites(std::string_view source, const ScanLimits& limits,
                      std::vector<uint32_t>* sites, ProbeSiteInfo* info,
                      const ProbeSiteOptions& options) {
  sites->clear();
  if (info) *info = ProbeSiteInfo();
  if (source.size() > limits.max_bytes || source.size() > kProbeSiteOffsetMask)
    return Status::kSourceTooLarge;
  std::vector<Token> tokens;
  Status s = Tokenize(source, SourcePosition{1, 1}, limits.tokens, &tokens);
  if (s != Status::kOk) return s;
  std::vector<FunctionDefinition> functions;
  s = FindFunctions(source, tokens, &functions);
  SiteFinder finder(source, tokens, sites, options);
  if (s == Status::kOk) s = finder.Run(functions);
  if (s != Status::kOk) {
    sites->clear();
    return s;
  }
  if (info) {
    finder.ScriptInfo(info);
    info->unwrapped = finder.unwrapped();
    info->unguarded = finder.unguarded();
  }
  // By offset; at one offset the closers go first, an unbraced loop body's
  // `}` before the function's `}finally{…}` it ends in (an arrow's
  // expression body ends first: it cannot contain those), and a body's
  // `try{` after its entry check.
  auto rank = [](uint32_t site) {
    uint32_t order = 0;
    switch (ProbeSiteKindOf(site)) {
      case ProbeSiteKind::kCloseArrow:
        order = 0;
        break;
      case ProbeSiteKind::kCloseBlock:
        order = 1;
        break;
      case ProbeSiteKind::kCloseTry:
        order = 2;
        break;
      case ProbeSiteKind::kCheck:
        order = 3;
        break;
      case ProbeSiteKind::kCheckAfterDirective:
        order = 4;
        break;
      case ProbeSiteKind::kOpenBlock:
        order = 5;
        break;
      case ProbeSiteKind::kOpenTry:
        order = 6;
        break;
      case ProbeSiteKind::kOpenArrow:
        order = 7;
        break;
    }
    return (static_cast<uint64_t>(ProbeSiteOffset(site)) << 3) | order;
  };
  std::sort(sites->begin(), sites->end(),
            [&](uint32_t a, uint32_t b) { return rank(a) < rank(b); });
  // A method named `for`/`while` is found twice; nested loop bodies and
  // nested arrows (`a => b => c`) may close at one offset, and each needs its
  // closer (a function body's `}` is its own: a repeated kCloseTry is the
  // same body found twice).
  sites->erase(std::unique(sites->begin(), sites->end(),
                           [](uint32_t a, uint32_t b) {
                             ProbeSiteKind k = ProbeSiteKindOf(a);
                             return a == b && k != ProbeSiteKind::kCloseBlock &&
                                    k != ProbeSiteKind::kCloseArrow;
                           }),
               sites->end());
  return Status::kOk;
}

}  // namespace webprof
