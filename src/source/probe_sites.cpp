// FindProbeSites: function bodies from FindFunctions, loops from their
// keywords, and the end of an unbraced loop body from the statement grammar
// (see probe_sites.h for the design).
#include "source/probe_sites.h"

#include <algorithm>

#include "source/statement_grammar.h"

namespace webprof {
namespace {

constexpr uint32_t kNone = Token::kNone;
// Names before `(` or a template that make no call (`if (`, `return (`,
// `typeof (`, `async (x) =>`).
constexpr const char* kNotCallees[] = {
    "if",     "for",  "while",  "switch",   "catch", "with",       "return",
    "typeof", "void", "delete", "in",       "of",    "instanceof", "case",
    "do",     "else", "throw",  "function", "class", "extends",    "async"};

class SiteFinder : StatementGrammar {
 public:
  SiteFinder(std::string_view s, const std::vector<Token>& t,
             std::vector<uint32_t>* out, const ProbeSiteOptions& options)
      : StatementGrammar(s, t), out_(*out), options_(options) {}

  Status Run(const std::vector<FunctionDefinition>& functions) {
    if (options_.exit_checks) {
      MarkCallingBlocks();
      body_.assign(t_.size(), false);
      temp_.assign(t_.size(), false);
      loop_.assign(t_.size(), false);
      loops_.assign(t_.size(), false);
      for (const FunctionDefinition& f : functions)
        if (f.body_brace != kNone) body_[f.body_brace] = true;
    }
    Status s = Loops();
    if (s != Status::kOk) return s;
    if (options_.exit_checks)
      for (uint32_t i = 0; i < t_.size(); ++i)
        if (IsName(i, "return") && !IsProperty(i)) ReturnExit(i);
    for (const FunctionDefinition& f : functions)
      if (f.body_brace != kNone) BodyCheck(f.body_brace);
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
    else if (last != kNone && k < t_.size())
      info->prelude = t_[k].begin;  // on its own line after a bare directive
    else if (last != kNone)
      info->prelude = static_cast<uint32_t>(s_.size());
    else  // none: the file's start (after a hashbang's line), so the first
          // statement's line, often a definition after a comment, keeps its
          // columns; the hashbang stays the first line's text
      info->prelude = HashbangEnd(s_);
    for (uint32_t i = 0; i < t_.size() && !info->module_syntax; ++i) {
      if (t_[i].parent != kNone || IsProperty(i)) continue;
      info->module_syntax =
          IsName(i, "export") ||
          (IsName(i, "import") && !IsPunct(i + 1, "(") && !IsPunct(i + 1, "."));
    }
  }

 private:
  // `do` as a member name in a class or object: `do(x) {}` (never a loop:
  // `do (x) {` cannot be followed by its `while`), `do = 1`, `do;`, `do }`.
  bool IsMemberKey(uint32_t i) const {
    if (IsPunct(i + 1, "=") || IsPunct(i + 1, "}") ||
        (IsPunct(i + 1, ";") && !IsName(i + 2, "while")))  // `do;while(x)`
      return true;
    return IsPunct(i + 1, "(") && t_[i + 1].match != kNone &&
           IsPunct(t_[i + 1].match + 1, "{");
  }
  void Emit(uint32_t offset, ProbeSiteKind kind, bool light = false) {
    out_.push_back(offset | (light ? kProbeSiteLight : 0u) |
                   static_cast<uint32_t>(kind) << kProbeSiteKindShift);
  }

  // After a body's `{` and its directive prologue ('use strict'; ...),
  // except in a leaf; then its exits.
  void BodyCheck(uint32_t open) {
    uint32_t k = open + 1, last = kNone;
    Prologue(open, &k, &last);
    uint32_t at = t_[last == kNone ? open : last].end;
    if (!Leaf(open)) {
      if (last == kNone || IsPunct(last, ";"))
        Emit(at, ProbeSiteKind::kCheck);
      else
        Emit(at, ProbeSiteKind::kCheckAfterDirective);
    }
    // Exit checks: the temp its returns use, declared after the entry
    // check, and a check before the body's `}` (same line: lines never
    // move) unless its last statement leaves anyway.
    bool full = Exits(open);
    if (!(full || LightExits(open)) || k == t_[open].match) return;
    if (temp_[open]) Emit(at, ProbeSiteKind::kDeclareTemp);
    if (!EndsInJump(k, t_[open].match))
      Emit(t_[t_[open].match].begin, ProbeSiteKind::kExitEnd, !full);
  }
  // The directive prologue of the body at `open`: `*k` the first token
  // after it, `*last` its last directive's last token (its `;`, or the
  // string itself when `;`, `}` or automatic semicolon insertion ends it),
  // kNone without one. A string statement is a directive when `;`, `}` or
  // automatic semicolon insertion ends it; otherwise (`'a'\n.length`) it
  // is an expression.
  void Prologue(uint32_t open, uint32_t* k, uint32_t* last) const {
    *k = open + 1;
    *last = kNone;
    while (*k < t_.size() && t_[*k].kind == TokenKind::kString) {
      if (IsPunct(*k + 1, ";")) {
        *last = *k + 1;
        *k += 2;
      } else if (IsPunct(*k + 1, "}") ||
                 (*k + 1 < t_.size() && t_[*k + 1].newline_before &&
                  LineBreakEnds(*k, *k + 1))) {
        *last = *k;
        *k += 1;
      } else {
        break;
      }
    }
  }
  // Whether the body at `open` gets no entry check: with exit checks, a
  // body that runs no other code (light exit checks only) and holds no
  // loop. Its entry check would be the only full check between its
  // caller's last one before the call and the next one after it returns
  // (in the caller, or at another such call's entry), and an entry check's
  // samples are the caller's (src/source/frame_resolver.h): both stretches
  // are charged to the same stack with or without it. So the smallest, most
  // called functions (lodash's `isObjectLike`, a per-character predicate)
  // cost no check per call, as an arrow's expression body of the same kind
  // (`x => x * 2`) never did. Its light exit checks take a tick pending
  // at its exit with it on the stack: the caller's stretch before the call
  // and the body's own run. What moves: a tick in the caller's stretch is
  // taken after the body, not before it; and where the body calls
  // transformed code implicitly (a getter, `valueOf`, a Proxy trap) that
  // code's first check takes the caller's stretch with this function on the
  // stack (docs/ARCHITECTURE.md, the accuracy model).
  bool Leaf(uint32_t open) const {
    return options_.exit_checks && !calls_[open] && !loops_[open];
  }
  // Whether the body at `open` gets exit checks: it runs other code (so it
  // is not empty).
  bool Exits(uint32_t open) const {
    return options_.exit_checks && calls_[open] && t_[open].match != kNone;
  }
  // Whether the body at `open` gets light exit checks (probe_sites.h): it
  // runs no other code. Not where its prologue's last directive has no `;`
  // and no entry check follows to supply one: the temp's `var` would then
  // join the directive (`'use strict'var`).
  bool LightExits(uint32_t open) const {
    if (!options_.exit_checks || calls_[open] || t_[open].match == kNone)
      return false;
    uint32_t k, last;
    Prologue(open, &k, &last);
    return last == kNone || IsPunct(last, ";") || !Leaf(open);
  }
  // Whether the statement list from `k` to `close` ends in a `return` or
  // `throw` (the end of the body is then never reached); in doubt not.
  bool EndsInJump(uint32_t k, uint32_t close) const {
    uint32_t last = kNone;
    while (k < close) {
      uint32_t e = StatementEnd(k, 0);
      if (e == kNone || e >= close) return false;
      last = k;
      k = e + 1;
    }
    return last != kNone && !IsProperty(last) &&
           (IsName(last, "return") || IsName(last, "throw"));
  }

  // `return e` → `return(__wp$t=(0,e),exit,__wp$t)`, a bare `return` →
  // `return void(exit)` (and `;` where a line break ended it), in a body
  // with exit checks.
  void ReturnExit(uint32_t i) {
    uint32_t body = ReturnBody(i);
    if (body == kNone) return;
    bool full = Exits(body);
    if (!full && !LightExits(body)) return;
    uint32_t next = i + 1;
    if (IsPunct(next, ";") || IsPunct(next, "}") || t_[next].newline_before) {
      if (!RanSinceCheck(i, body, i)) return;
      bool asi = t_[next].newline_before && !IsPunct(next, ";");
      Emit(t_[i].end,
           asi ? ProbeSiteKind::kReturnBareEnd : ProbeSiteKind::kReturnBare,
           !full);
      return;
    }
    uint32_t end = SimpleEnd(i);
    if (end != kNone && IsPunct(end, ";")) --end;
    if (end == kNone || end <= i) {
      ++unguarded_;
      return;
    }
    if (!RanSinceCheck(i, body, end)) return;
    Emit(t_[next].begin, ProbeSiteKind::kOpenReturn);
    Emit(t_[end].end, ProbeSiteKind::kCloseReturn, !full);
    temp_[body] = true;
  }
  // Whether the `return` at `i` needs its check: always when the last check
  // before it on every path is its body's entry check, whose samples stand
  // for the caller (src/source/frame_resolver.h) — without an exit check a
  // function's own time after it went to the caller's next check, so acorn's
  // `isIdentifierChar` (its ASCII path: `if (code < 48) return code === 36`)
  // never appeared, where Chromium's native Profiler gave it 2.5 % self
  // (docs/BENCHMARKS.md, "Where ticker mode's samples land"). After its
  // innermost enclosing loop body's check (braced: at its start), only when
  // other code may have run between that check and the end of its argument
  // `end`: the loop check's samples are the function's own, so a return that
  // follows only operators of its own there costs a few operators' time.
  // Token order stands for time: in doubt it counts.
  bool RanSinceCheck(uint32_t i, uint32_t body, uint32_t end) const {
    for (uint32_t p = t_[i].parent; p != body; p = t_[p].parent)
      if (loop_[p]) return runs_[end + 1] > runs_[p];
    return true;
  }
  // The function body `{` a `return` token at `i` leaves, or kNone when it
  // may be no statement: a member named `return` (`return(){}`, `return:`,
  // `get return`, a class field `return;`) or a top-level `return`. Its
  // brace must be a block or a body (never a class body or object literal),
  // and only blocks may lie between it and the body. In doubt kNone: a
  // return left without its exit check only loses accuracy.
  uint32_t ReturnBody(uint32_t i) const {
    if (i + 1 >= t_.size() || IsPunct(i + 1, ":") || IsPunct(i + 1, "="))
      return kNone;
    if (IsPunct(i + 1, "(") &&  // `return(x){}` is a method
        (t_[i + 1].match == kNone || IsPunct(t_[i + 1].match + 1, "{")))
      return kNone;
    if (i > 0 &&
        (IsPunct(i - 1, "*") || IsPunct(i - 1, "#") || IsName(i - 1, "get") ||
         IsName(i - 1, "set") || IsName(i - 1, "static") ||
         IsName(i - 1, "async") || IsName(i - 1, "accessor")))
      return kNone;
    uint32_t p = t_[i].parent;
    if (p == kNone || !IsBlock(p, 0)) return kNone;
    while (p != kNone && !body_[p]) {
      if (!IsPunct(p, "{")) return kNone;
      p = t_[p].parent;
    }
    return p;
  }
  // Whether the `{` at `p` is surely a function body or a block statement
  // (from what precedes it): after `;`, `{`, `else`, `try`, `finally`,
  // `do`, a control header's `)`, a label's or case's `:`, or the `}` of a
  // block. A class body (after a name, `class`, a heritage's `)`, `]` or
  // `}`) never is; in doubt it is not.
  bool IsBlock(uint32_t p, int depth) const {
    if (!IsPunct(p, "{") || depth > kMaxStatementDepth) return false;
    if (body_[p]) return true;
    if (p == 0) return true;
    uint32_t b = p - 1;
    if (IsPunct(b, ";") || IsPunct(b, "{") || IsPunct(b, ":")) return true;
    if (!IsProperty(b) && (IsName(b, "else") || IsName(b, "try") ||
                           IsName(b, "finally") || IsName(b, "do")))
      return true;
    if (IsPunct(b, "}"))
      return t_[b].match != kNone && !body_[t_[b].match] &&
             IsBlock(t_[b].match, depth + 1);
    if (IsPunct(b, ")") && t_[b].match != kNone && t_[b].match > 0) {
      uint32_t h = t_[b].match - 1;
      if (IsName(h, "await") && h > 0) --h;
      return !IsProperty(h) &&
             (IsName(h, "if") || IsName(h, "for") || IsName(h, "while") ||
              IsName(h, "with") || IsName(h, "switch") || IsName(h, "catch"));
    }
    return false;
  }

  // An arrow's expression body starting at `k` becomes a block body with an
  // entry and an exit check (`var __wp$t=(` keeps a body that starts on the
  // next line in one statement).
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
    runs_.assign(t_.size() + 1, 0);
    for (uint32_t j = 0; j < t_.size(); ++j) {
      runs_[j + 1] = runs_[j];
      if (!RunsOtherCode(j)) continue;
      ++runs_[j + 1];
      for (uint32_t p = t_[j].parent; p != kNone && !calls_[p];
           p = t_[p].parent)
        calls_[p] = true;
    }
  }

  // Loop bodies (their checks) and arrows' expression bodies.
  Status Loops() {
    for (uint32_t i = 0; i < t_.size(); ++i) {
      if (options_.exit_checks && IsPunct(i, "=>") && !IsPunct(i + 1, "{"))
        ArrowBody(i + 1);
      if (t_[i].kind != TokenKind::kName || IsProperty(i)) continue;
      std::string_view w = Text(i);
      if ((w == "for" || w == "while" || w == "do") && !loops_.empty())
        MarkLoop(i);  // in doubt a loop (`do` as a member name too)
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

  // Marks every bracket enclosing the loop keyword at `i` (see Leaf).
  void MarkLoop(uint32_t i) {
    for (uint32_t p = t_[i].parent; p != kNone && !loops_[p]; p = t_[p].parent)
      loops_[p] = true;
  }

  // The loop body statement starting at token `body`.
  void LoopBody(uint32_t body) {
    if (body >= t_.size()) return;
    if (IsPunct(body, "{")) {
      Emit(t_[body].end, ProbeSiteKind::kCheck);
      if (!loop_.empty()) loop_[body] = true;
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

  std::vector<uint32_t>& out_;
  const ProbeSiteOptions& options_;
  std::vector<bool> do_while_;  // per token, once a `do` is seen: its `while`
  std::vector<bool> calls_;     // per opener: encloses RunsOtherCode
  std::vector<bool> body_;      // per `{`: a function body
  std::vector<bool> temp_;      // per body `{`: a return uses the temp
  std::vector<bool> loop_;      // per `{`: a loop body (its check at its start)
  std::vector<bool> loops_;     // per opener: encloses a loop keyword
  std::vector<uint32_t> runs_;  // RunsOtherCode tokens before each token
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
  // By offset; at one offset the closers go first, innermost first: an
  // arrow's expression body (it holds no return of its own), a return's
  // argument (it may hold such an arrow), a bare return, an unbraced loop
  // body (it may hold a return), the body's end check; then the entry check,
  // the temp after it, and the openers.
  auto rank = [](uint32_t site) {
    static constexpr uint32_t kOrder[] = {
        /*kCheck*/ 5,        /*kCheckAfterDirective*/ 6,
        /*kOpenBlock*/ 8,
        /*kCloseBlock*/ 3,   /*kDeclareTemp*/ 7,
        /*kExitEnd*/ 4,
        /*kOpenArrow*/ 9,    /*kCloseArrow*/ 0,
        /*kOpenReturn*/ 10,
        /*kCloseReturn*/ 1,  /*kReturnBare*/ 2,
        /*kReturnBareEnd*/ 2};
    return (static_cast<uint64_t>(ProbeSiteOffset(site)) << 4) |
           kOrder[static_cast<uint32_t>(ProbeSiteKindOf(site))];
  };
  std::sort(sites->begin(), sites->end(),
            [&](uint32_t a, uint32_t b) { return rank(a) < rank(b); });
  // A method named `for`/`while` is found twice; nested loop bodies and
  // nested arrows (`a => b => c`) may close at one offset, and each needs its
  // closer (a function body's `}` is its own: a repeated kExitEnd is the
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
