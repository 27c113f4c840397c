// Probe sites of the sampling transform: every edit shown in place (`@` for
// the check, `;@` after a directive without `;` or before a body's `}`,
// `{@` ... `}` around an unbraced loop body, `$` the check as an expression
// in a `return`, `%` the light check (probe_sites.h), `t` the temp
// `__wp$t`), on the shapes that once broke code and on every statement form a
// loop body can take. tests/js/transform.test.mjs checks the same shapes
// parse and run under a real JavaScript parser and engine.
#include "source/probe_sites.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace webprof {
namespace {

std::string Edit(const std::string& src, bool exit_checks = false,
                 ProbeSiteInfo* info = nullptr) {
  std::vector<uint32_t> sites;
  Status s = FindProbeSites(src, ScanLimits(), &sites, info,
                            ProbeSiteOptions{exit_checks});
  if (s != Status::kOk) return std::string("<") + StatusName(s) + ">";
  std::string out = src;
  for (size_t i = sites.size(); i-- > 0;) {
    const char* text = "@";
    switch (ProbeSiteKindOf(sites[i])) {
      case ProbeSiteKind::kCheck:
        text = "@";
        break;
      case ProbeSiteKind::kCheckAfterDirective:
        text = ";@";
        break;
      case ProbeSiteKind::kOpenBlock:
        text = "{@";
        break;
      case ProbeSiteKind::kCloseBlock:
        text = "}";
        break;
      case ProbeSiteKind::kDeclareTemp:
        text = "var t;";
        break;
      case ProbeSiteKind::kExitEnd:
        text = ";@";
        break;
      case ProbeSiteKind::kOpenArrow:
        text = "{@var t=(";
        break;
      case ProbeSiteKind::kCloseArrow:
        text = ");@return t}";
        break;
      case ProbeSiteKind::kOpenReturn:
        text = "(t=(";
        break;
      case ProbeSiteKind::kCloseReturn:
        text = "),$,t)";
        break;
      case ProbeSiteKind::kReturnBare:
        text = " void$";
        break;
      case ProbeSiteKind::kReturnBareEnd:
        text = " void$;";
        break;
    }
    std::string edit = text;
    // The light check in place of the check (`$`, or `@` before a body's
    // `}`).
    if (ProbeSiteIsLight(sites[i]))
      edit.replace(edit.find_first_of("$@"), 1, "%");
    out.insert(ProbeSiteOffset(sites[i]), edit);
  }
  return out;
}

TEST(ProbeSites, FunctionBodiesAfterDirectivesAndLoops) {
  EXPECT_EQ(Edit("function f() { 'use strict'; for (;;) { g(); } }\n"
                 "const a = (x) => x, b = async () => { do { y(); } while "
                 "(c); };\n"
                 "class K { m() { while (z) { } for (const q of r) q(); } }\n"
                 "const s = '{ function x() {} }';\n"),
            "function f() { 'use strict';@ for (;;) {@ g(); } }\n"
            "const a = (x) => x, b = async () => {@ do {@ y(); } while (c); "
            "};\n"
            "class K { m() {@ while (z) {@ } for (const q of r) {@q();} } }\n"
            "const s = '{ function x() {} }';\n");
  EXPECT_EQ(Edit("function ("), "<SourceUnscannable>");
}

// Issue 13: exit checks, without `try`. A `return` evaluates its argument,
// then the check, then gives the argument's value (a temp the body declares
// after its entry check); a bare `return` runs the check (`;` where a line
// break ended it); the body's end gets one before its `}` on the same line
// unless its last statement returns or throws. A body that runs no other
// code (no call, `new`, `await`, `yield`, spread) needs none, nor does a
// return that only operators precede since a loop body's check; after the
// entry check (m's first) one does: the entry check's samples are the
// caller's, so without it m's own time went to the caller.
TEST(ProbeSites, ExitChecksAtReturnsAndTheBodyEnd) {
  EXPECT_EQ(
      Edit("function f(a) { 'use strict'\n  return a.exec(s) }\n"
           "const g = async () => { await x; for (;;) y() }, h = () => 1;\n"
           "class K extends B { constructor() { super(); } get v() { return 1 "
           "} m(x) { if (x) return typeof (x); n(); return } }\n",
           true),
      "function f(a) { 'use strict';@var t;\n  return (t=(a.exec(s)),$,t) }\n"
      "const g = async () => {@ await x; for (;;) {@y()} ;@}, h = () => 1;\n"
      "class K extends B { constructor() {@ super(); ;@} get v() {var t; "
      "return (t=(1),%,t) } m(x) {@var t; if (x) return (t=(typeof (x)),$,t); "
      "n(); return void$ } }\n");
  EXPECT_EQ(Edit("function e() {} function d() { 'use strict' }", true),
            "function e() {} function d() { 'use strict' }");
  // A line break after `return` ends it; `(` on the next line must not
  // become a call of the check.
  EXPECT_EQ(Edit("function f() { g(); if (a) return\n(h)()\n}", true),
            "function f() {@ g(); if (a) return void$;\n(h)()\n;@}");
  EXPECT_EQ(Edit("function f() { try { return g() } finally { h() } }", true),
            "function f() {@var t; try { return (t=(g()),$,t) } finally { h() "
            "} ;@}");
  // A loop body's check is the last before a return inside it.
  EXPECT_EQ(
      Edit("function f() { g(); for (;;) { if (a) return 1; h() } }", true),
      "function f() {@ g(); for (;;) {@ if (a) return 1; h() } ;@}");
  // Function declarations in the body are no obstacle any more.
  EXPECT_EQ(Edit("function f() { var g; function g() { return 1 } return g() "
                 "}",
                 true),
            "function f() {@var t; var g; function g() {var t; return "
            "(t=(1),%,t) } return (t=(g()),$,t) }");
}

// With exit checks, a body that runs no other code and holds no loop gets no
// entry check: it would be the only one between its caller's checks, and its
// samples were the caller's. It gets light exit checks (`%`, no decrement:
// they take a pending tick only), and so does a body with a loop but no
// call, after its loop checks. A loop or a call (in a nested function too:
// in doubt a check) keeps the entry check; a call keeps the full exits.
TEST(ProbeSites, LeavesGetLightExitChecksOnly) {
  EXPECT_EQ(
      Edit("function a(x) { if (x < 65) return x === 36; return x > 90 }\n"
           "function b(s) { let n = 0; while (s) s >>= 1, n++; return n }\n"
           "function c(x) { return () => g(x) }\n"
           "const d = { m(o) { return o.k }, get v() { return this.m } };\n"
           "function e(o) { o.k = 1 }\n"
           "function f(s) { for (;;) { if (s) return s; s++ } }\n",
           true),
      "function a(x) {var t; if (x < 65) return (t=(x === 36),%,t); return "
      "(t=(x > 90),%,t) }\n"
      "function b(s) {@var t; let n = 0; while (s) {@s >>= 1, n++;} return "
      "(t=(n),%,t) }\n"
      "function c(x) {@var t; return (t=(() => {@var t=(g(x));@return t}),$,t) "
      "}\n"
      "const d = { m(o) {var t; return (t=(o.k),%,t) }, get v() {var t; return "
      "(t=(this.m),%,t) } };\n"
      "function e(o) { o.k = 1 ;%}\n"
      "function f(s) {@ for (;;) {@ if (s) return s; s++ } ;%}\n");
  // A directive without `;` and no entry check to supply one: no temp (it
  // would join the directive), so no checks; with its `;` they go after it.
  EXPECT_EQ(Edit("function a(x) { 'use strict'\n return x }\n"
                 "function b(x) { 'use strict'; return x }",
                 true),
            "function a(x) { 'use strict'\n return x }\n"
            "function b(x) { 'use strict';var t; return (t=(x),%,t) }");
  // Without exit checks every body keeps its entry check.
  EXPECT_EQ(Edit("function a(x) { return x }"), "function a(x) {@ return x }");
}

// Only a `return` that surely is a statement gets its check: members named
// `return` stay as they are, and so does a top-level (CommonJS) `return`.
TEST(ProbeSites, MembersNamedReturnAreNotReturns) {
  EXPECT_EQ(
      Edit("function f() { g(); o = { return: 1, return() { return h() } }; "
           "class A { return; static return = 2; get return() { return 1 } } "
           "x = y.return(z) }\nreturn q()",
           true),
      "function f() {@ g(); o = { return: 1, return() {@var t; return "
      "(t=(h()),$,t) } }; class A { return; static return = 2; get return() "
      "{var t; return (t=(1),%,t) } } x = y.return(z) ;@}\nreturn q()");
  EXPECT_EQ(Edit("function f() { switch (a()) { case 1: { return b } default: "
                 "return } }",
                 true),
            "function f() {@var t; switch (a()) { case 1: { return (t=(b),$,t) "
            "} default: return void$ } ;@}");
}

// An arrow's expression body that runs other code gets both checks; it ends
// at `,`, `;`, a closer, a `:` of no `?` of its own, or a line break where
// ASI applies.
TEST(ProbeSites, ArrowExpressionBodiesBecomeBlocks) {
  EXPECT_EQ(Edit("f(x => g(x), (a, b) => c ? a() : b, x => x * 2);\n"
                 "g = c ? y => y : z => ({ ...z }), h = a => b => f(a + b)\n"
                 "k = async v =>\n  await v\n(l)\n",
                 true),
            "f(x => {@var t=(g(x));@return t}, (a, b) => {@var t=(c ? a() : "
            "b);@return t}, x => x * 2);\n"
            "g = c ? y => y : z => {@var t=(({ ...z }));@return t}, h = a => "
            "{@var t=(b => {@var t=(f(a + b));@return t});@return t}\n"
            "k = async v =>\n  {@var t=(await v\n(l));@return t}\n");
  // Without exit checks an expression body stays as it is.
  EXPECT_EQ(Edit("f(x => g(x))"), "f(x => g(x))");
  // A returned arrow closes inside the return.
  EXPECT_EQ(Edit("function f() { return x => g(x) }", true),
            "function f() {@var t; return (t=(x => {@var t=(g(x));@return "
            "t}),$,t) }");
}

// Issue 13: an arrow's expression body ending in `}` is not a body.
TEST(ProbeSites, ExpressionBodiesEndingInBracesGetNoCheck) {
  EXPECT_EQ(Edit("f = x => x || { value: x };"), "f = x => x || { value: x };");
  EXPECT_EQ(Edit("m = a => class extends a { m() { return 1; } };"),
            "m = a => class extends a { m() {@ return 1; } };");
  EXPECT_EQ(Edit("k = (o) => o && { keys: [] }, c = y => y ? {a} : {b};"),
            "k = (o) => o && { keys: [] }, c = y => y ? {a} : {b};");
  EXPECT_EQ(Edit("g = () => function () { return 1; };"),
            "g = () => function () {@ return 1; };");
}

TEST(ProbeSites, DirectivesStayFirst) {
  EXPECT_EQ(Edit("function f() {\n 'use strict'\n g() }"),
            "function f() {\n 'use strict';@\n g() }");
  EXPECT_EQ(Edit("function f() {'a';'b'}"), "function f() {'a';'b';@}");
  // Not directives: the string goes on into an expression.
  EXPECT_EQ(Edit("function f() {\n 'a'\n .length }"),
            "function f() {@\n 'a'\n .length }");
  EXPECT_EQ(Edit("function f() { 'a' + b }"), "function f() {@ 'a' + b }");
}

TEST(ProbeSites, UnbracedLoopBodiesAreWrapped) {
  EXPECT_EQ(Edit("for (let i = 0; i < n; i++) s += i;"),
            "for (let i = 0; i < n; i++) {@s += i;}");
  EXPECT_EQ(Edit("while (x < 9) x++\nf()"), "while (x < 9) {@x++}\nf()");
  EXPECT_EQ(Edit("while (x()) ;"), "while (x()) {@;}");
  EXPECT_EQ(Edit("do x++; while (x < 9)"), "do {@x++;} while (x < 9)");
  EXPECT_EQ(Edit("do x++\nwhile (x < 9)\ny()"),
            "do {@x++}\nwhile (x < 9)\ny()");
  EXPECT_EQ(Edit("for (const k in o) for (const j of k) g(j);"),
            "for (const k in o) {@for (const j of k) {@g(j);}}");
  EXPECT_EQ(Edit("if (a) for (;;) x; else y;"),
            "if (a) for (;;) {@x;} else y;");
  EXPECT_EQ(Edit("for (;;) if (a) b(); else if (c) d(); else break;"),
            "for (;;) {@if (a) b(); else if (c) d(); else break;}");
  EXPECT_EQ(Edit("l: for (;;) m: for (;;) continue l;"),
            "l: for (;;) {@m: for (;;) {@continue l;}}");
  EXPECT_EQ(Edit("async function f() { for await (const x of y) g(x) }"),
            "async function f() {@ for await (const x of y) {@g(x)} }");
  EXPECT_EQ(Edit("for (;;) try { a() } catch { b() } finally { c() } d()"),
            "for (;;) {@try { a() } catch { b() } finally { c() }} d()");
  EXPECT_EQ(Edit("for (;;) switch (a) { case 1: b() }"),
            "for (;;) {@switch (a) { case 1: b() }}");
  EXPECT_EQ(Edit("while (a) with (o) b()"), "while (a) {@with (o) b()}");
  EXPECT_EQ(Edit("do;while(a()&&b)"), "do{@;}while(a()&&b)");
  EXPECT_EQ(Edit("do do a(); while (b); while (c);"),
            "do {@do {@a();} while (b);} while (c);");
}

// Where a line break ends the body (automatic semicolon insertion) and
// where it does not.
TEST(ProbeSites, LineBreaksEndBodiesOnlyWhereTheGrammarSays) {
  EXPECT_EQ(Edit("for (;;) a\n(b)"), "for (;;) {@a\n(b)}");
  EXPECT_EQ(Edit("for (;;) a\n[b]"), "for (;;) {@a\n[b]}");
  EXPECT_EQ(Edit("for (;;) a\n`t`"), "for (;;) {@a\n`t`}");
  EXPECT_EQ(Edit("for (;;) a\n+ b\nc"), "for (;;) {@a\n+ b}\nc");
  EXPECT_EQ(Edit("for (;;) a\n++b"), "for (;;) {@a}\n++b");
  EXPECT_EQ(Edit("for (;;) return\na"), "for (;;) {@return}\na");
  EXPECT_EQ(Edit("for (;;) var\nx = 1"), "for (;;) {@var\nx = 1}");
  EXPECT_EQ(Edit("for (;;) f = () => {}\n[1].map(g)"),
            "for (;;) {@f = () => {@}}\n[1].map(g)");
  EXPECT_EQ(Edit("for (;;) f = function () {}\n(1)"),
            "for (;;) {@f = function () {@}\n(1)}");
  EXPECT_EQ(Edit("for (;;) C = class extends B\n{}\nx"),
            "for (;;) {@C = class extends B\n{}}\nx");
  EXPECT_EQ(Edit("{ for (;;) a }"), "{ for (;;) {@a} }");
}

TEST(ProbeSites, KeywordsAsNamesAreNotLoops) {
  EXPECT_EQ(Edit("o = { do: 1, for: 2, while: 3 }; o.do(); o.for(a) / 2;"),
            "o = { do: 1, for: 2, while: 3 }; o.do(); o.for(a) / 2;");
  EXPECT_EQ(Edit("class A { do() { } static for = 1; while(x) { } }"),
            "class A { do() {@ } static for = 1; while(x) {@ } }");
}

TEST(ProbeSites, ObjectsClassesAndSwitchBodiesAreNotBlocks) {
  EXPECT_EQ(Edit("l: { f(a) }"), "l: { f(a) }");
  EXPECT_EQ(Edit("x = { m(a) { }, get g() { }, set s(v) { } }"),
            "x = { m(a) {@ }, get g() {@ }, set s(v) {@ } }");
  EXPECT_EQ(Edit("class A { #p = 1; static { init(); } *g() { } #m() { } }"),
            "class A { #p = 1; static { init(); } *g() {@ } #m() {@ } }");
  EXPECT_EQ(Edit("function* g() { yield {a} }"),
            "function* g() {@ yield {a} }");
}

TEST(ProbeSites, RegexAfterControlHeadsAndHtmlComments) {
  // The `/` after `if (...)` starts a regex whose `(` must not pair.
  EXPECT_EQ(Edit("while (a) /[(]/.test(s) && f()\ng()"),
            "while (a) {@/[(]/.test(s) && f()}\ng()");
  EXPECT_EQ(Edit("x = a.return / 2 / (b); y = a.if(b) / 2 / 1"),
            "x = a.return / 2 / (b); y = a.if(b) / 2 / 1");
  EXPECT_EQ(Edit("<!-- function ( {\nf = function () {}\n--> } ) {"),
            "<!-- function ( {\nf = function () {@}\n--> } ) {");
}

TEST(ProbeSites, PreludeAfterDirectivesAndModuleSyntax) {
  std::vector<uint32_t> sites;
  ProbeSiteInfo info;
  std::string cjs = "#!/usr/bin/env node\n'use strict';\nmodule.exports = 1;";
  ASSERT_EQ(FindProbeSites(cjs, ScanLimits(), &sites, &info), Status::kOk);
  EXPECT_EQ(cjs.substr(info.prelude), "\nmodule.exports = 1;");
  EXPECT_FALSE(info.module_syntax);
  std::string bare = "'use strict'\nimport('x'); a.import; import.meta";
  ASSERT_EQ(FindProbeSites(bare, ScanLimits(), &sites, &info), Status::kOk);
  EXPECT_EQ(bare.substr(info.prelude), "import('x'); a.import; import.meta");
  EXPECT_FALSE(info.module_syntax);
  ASSERT_EQ(
      FindProbeSites("f(); export const a = 1;", ScanLimits(), &sites, &info),
      Status::kOk);
  EXPECT_TRUE(info.module_syntax);
  ASSERT_EQ(FindProbeSites("import a from 'a'", ScanLimits(), &sites, &info),
            Status::kOk);
  EXPECT_TRUE(info.module_syntax);
  EXPECT_EQ(info.prelude, 0u);
}

// Without directives the prelude opens the file (after a hashbang's line), so
// a first statement after a comment keeps its columns.
TEST(ProbeSites, PreludeWithoutDirectivesOpensTheFile) {
  std::vector<uint32_t> sites;
  ProbeSiteInfo info;
  std::string commented = "// a workload\nexport function partA(ms) {}";
  ASSERT_EQ(FindProbeSites(commented, ScanLimits(), &sites, &info),
            Status::kOk);
  EXPECT_EQ(info.prelude, 0u);
  for (std::string nl : {"\n", "\r\n", "\r", "\xE2\x80\xA8"}) {
    std::string bang = "#!/usr/bin/env node" + nl + "/* c */ f();";
    ASSERT_EQ(FindProbeSites(bang, ScanLimits(), &sites, &info), Status::kOk);
    EXPECT_EQ(bang.substr(info.prelude), "/* c */ f();");
  }
  std::string only = "#!/usr/bin/env node";
  ASSERT_EQ(FindProbeSites(only, ScanLimits(), &sites, &info), Status::kOk);
  EXPECT_EQ(info.prelude, only.size());
}

}  // namespace
}  // namespace webprof
