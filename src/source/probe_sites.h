// Probe sites for the dense-sampling transform (js/transform/).
//
// Problem: the transform inserts a check
// (`if(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;`) that must run
// at every function entry and every loop iteration, and inserting it must never
// change what the script means or on which line anything is. A check is a
// statement, so it may only go where a statement list is: just after a function
// body's `{` (past the directive prologue, which must stay first) or a braced
// loop body's `{`. An unbraced loop body (`for (...) s += i;`) is wrapped in a
// block that starts with the check; closing that block needs the end of the
// body statement, found at token level from the statement grammar (compound
// statements by their keywords, simple ones at
// `;`, the enclosing closer, or a line break where automatic semicolon
// insertion applies). Whether a `{` is a block comes from what precedes it
// (function_finder.cpp decides bodies; a loop header's `)` is always followed
// by a statement), so object literals, class bodies and switch bodies never
// receive a check.
//
// Exit checks (ProbeSiteOptions::exit_checks): a function's time after its
// last check — a `RegExp.exec`, a property store, the rest of the body after
// a loop — would otherwise be charged to whatever check comes next, in its
// caller (docs/ARCHITECTURE.md, the accuracy model). So a check runs where
// the function leaves, with the function still on the stack, written
// without `try` (a `try{…}finally{check}` around the body cost ×1.1–1.2 with
// no profiler: V8 inlines such bodies less): `return e` becomes
// `return(__wp$t=(0,e),exit,__wp$t)` (`e` first, then the check as an
// expression, then its value; `__wp$t` a `var` the body declares after its
// entry check), a bare `return` becomes `return void(exit)`, and a check
// goes before the body's `}` unless its last statement is a `return` or
// `throw`. A `throw`, or an exception passing through, leaves without one.
// Only a body that runs other code gets them (a call, `new`, `await`,
// `yield` or spread): the smallest and most called functions, where a check
// costs most and the time an exit check would claim is a few operators,
// are left to their caller; without a loop either such a body gets no entry
// check (it would change no sample's stack: SiteFinder::Leaf). Such a body
// gets light exit checks instead (kProbeSiteLight on its exit edits): the
// check without its decrement, `__wp$f[1]>0`, true only while a ticker's
// tick is pending (ticker mode; never in counter mode, whose threshold stays
// 0). A load and a comparison per call, no store: a tick that falls inside
// the body is taken with the body on the stack, so the smallest functions
// (lodash's `isObjectLike`, prettier's `.at()` shim) appear as native shows
// them, where before their time was their caller's. In a body that has them
// every `return` gets one but a return that follows only operators
// since a loop body's check (the entry check's samples are the caller's, a loop
// check's the function's own). A `return` token counts only where it surely is
// a statement (its brace a block or body by what precedes it, never a member
// named `return`); in doubt it keeps no check. An arrow's expression body that
// runs other code (`x => f(x)`) becomes a block with both checks, `x => {check
// var __wp$t=(0,f(x));check return __wp$t}`: its time (an object spread, a call
// into code without checks) stays its own, and the time before it stays its
// caller's. Its end is found at token level: the first `,`, `;`, closer or
// unmatched `:` at its level, or a line break where ASI applies.
//
// Output: one uint32 per edit, `offset | kind << kProbeSiteKindShift`, the
// offset a UTF-8 byte offset into the source; sorted by offset, closers
// first at equal offsets. The JS transform (js/transform/index.mjs) reads the
// kinds through the bindings' constants, never a copy of these numbers.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "source/source_scanner.h"

namespace webprof {

enum class ProbeSiteKind : uint32_t {
  kCheck = 0,                // insert the check
  kCheckAfterDirective = 1,  // `;` + check: the prologue's last directive
                             // has no `;` of its own
  kOpenBlock = 2,            // `{` + check: an unbraced loop body starts
  kCloseBlock = 3,           // `}`: that body ends (same line)
  kDeclareTemp = 4,          // `var __wp$t;`: after a body's entry check
  kExitEnd = 5,              // `;` + check: before a body's `}`
  kOpenArrow = 6,      // `{` + check + `var __wp$t=(0,`: an arrow's expression
                       // body
  kCloseArrow = 7,     // `);` + check + `return __wp$t}`: after it
  kOpenReturn = 8,     // `(__wp$t=(0,`: before a `return`'s argument
  kCloseReturn = 9,    // `),` + exit + `,__wp$t)`: after it (exit = the
                       // check as an expression)
  kReturnBare = 10,    // ` void` + exit: after a `return` with no argument
  kReturnBareEnd = 11  // the same + `;`: that `return` ended by a line break
};
constexpr uint32_t kProbeSiteKindShift = 28;
// On an exit edit (kExitEnd, kCloseReturn, kReturnBare, kReturnBareEnd) in a
// body that runs no other code: the light check (no decrement: it takes a
// pending tick, nothing else) instead of the check.
constexpr uint32_t kProbeSiteLight = 1u << 27;
constexpr uint32_t kProbeSiteOffsetMask = kProbeSiteLight - 1;

inline uint32_t ProbeSiteOffset(uint32_t site) {
  return site & kProbeSiteOffsetMask;
}
inline ProbeSiteKind ProbeSiteKindOf(uint32_t site) {
  return static_cast<ProbeSiteKind>(site >> kProbeSiteKindShift);
}
inline bool ProbeSiteIsLight(uint32_t site) {
  return (site & kProbeSiteLight) != 0;
}

// What the transform needs to know about the whole script.
struct ProbeSiteInfo {
  // Byte offset where a statement can go before any other top-level code
  // (the transform binds its runtime there): right after the top-level
  // directive prologue, or, without one, the file's start (after a
  // hashbang's line), so a first statement after a comment keeps its
  // columns.
  uint32_t prelude = 0;
  bool module_syntax = false;  // a top-level `import`/`export` declaration
  uint32_t unwrapped = 0;      // unbraced loop bodies left without a check
                               // (their end was not found)
  uint32_t unguarded = 0;      // with exit checks: returns and arrows'
                               // expression bodies left without one (their
                               // end was not found)
};

struct ProbeSiteOptions {
  bool exit_checks = false;  // kDeclareTemp, kExitEnd, kOpenReturn …
                             // kReturnBareEnd in function bodies,
                             // kOpenArrow/kCloseArrow around arrow
                             // expression bodies
};

// The edits for `source`, or kSourceTooLarge / kSourceUnscannable as for
// SourceScan::ScanScript (then `sites` is empty and the script must be left
// as it is).
Status FindProbeSites(std::string_view source, const ScanLimits& limits,
                      std::vector<uint32_t>* sites,
                      ProbeSiteInfo* info = nullptr,
                      const ProbeSiteOptions& options = ProbeSiteOptions());

}  // namespace webprof
