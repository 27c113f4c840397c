// The statement grammar at token level, for the sampling transform's edits
// (probe_sites.cpp): where a statement, an expression or a declaration that
// starts at a token ends, and where a line break ends one (automatic
// semicolon insertion). The transform wraps statements and expressions it
// did not parse, so each answer is kNone when in doubt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "source/js_tokenizer.h"

namespace webprof {

class StatementGrammar : protected TokenReader {
 protected:
  StatementGrammar(std::string_view s, const std::vector<Token>& t)
      : TokenReader(s, t) {}

  // Statements nest at most this deep inside one statement before its end
  // is given up (recursion bound; real code nests a few).
  static constexpr int kMaxStatementDepth = 200;

  bool IsAnyName(uint32_t i, const char* const* words, size_t n) const;
  // `a.for`, `a?.do`: a property name, not a keyword.
  bool IsProperty(uint32_t i) const;
  // The last token of the element at `j` of an expression or statement: a
  // function or class (its body's `}`, kNone if it has none), a bracket
  // group or template, or the token itself.
  uint32_t StepOver(uint32_t j) const;
  // The last token of the assignment expression starting at `k` (an arrow's
  // expression body), or kNone: it ends before a `,`, `;`, closer or a `:`
  // of no `?` of its own at its level, or at a line break where ASI applies.
  uint32_t ExpressionEnd(uint32_t k) const;
  // The last token of the statement starting at `k`, or kNone.
  uint32_t StatementEnd(uint32_t k, int depth) const;
  // The closer of the group opened at `i` when `i` is `open`, else kNone.
  uint32_t GroupClose(uint32_t i, std::string_view open) const;
  // The last token of a bracket group or of a whole template at `i`.
  uint32_t GroupEnd(uint32_t i) const;
  // `function f() {}`, `class A extends B {}`: the body's `}`. Skipping to
  // the first `{` at this level also skips a heritage written over lines.
  uint32_t DeclarationEnd(uint32_t k) const;
  // An expression, declaration or jump statement: it ends at `;`, before
  // the closer of the enclosing group, or at a line break where automatic
  // semicolon insertion applies.
  uint32_t SimpleEnd(uint32_t k) const;
  // Automatic semicolon insertion between `prev` and `next`, separated by a
  // line break: after a restricted production's keyword, before a postfix
  // `++`/`--`, after an arrow's block body unless the expression goes on
  // (`,`, the `:` of a conditional), and wherever `next` cannot continue the
  // expression that `prev` ends.
  bool LineBreakEnds(uint32_t prev, uint32_t next) const;

 private:
  bool EndsValue(uint32_t i) const;
  // Whether `i` can follow an expression on the next line and continue it:
  // an operator, `(`, `[`, `.`, a template (a tagged call), `in`.
  bool Continues(uint32_t i) const;
};

}  // namespace webprof
