// Probe sites of the sampling transform: every edit shown in place (`@` for
// the check, `;@` after a directive without `;`, `{@` ... `}` around an
// unbraced loop body), on the shapes that once broke code and on every
// statement form a loop body can take. tests/js/transform.test.mjs checks
// the same shapes parse and run under a real JavaScript parser and engine.
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
      case ProbeSiteKind::kOpenTry:
        text = "try{";
        break;
      case ProbeSiteKind::kCloseTry:
        text = "}finally{@}";
        break;
      case ProbeSiteKind::kOpenArrow:
        text = "{@try{return(";
        break;
      case ProbeSiteKind::kCloseArrow:
        text = ")}finally{@}}";
        break;
    }
    out.insert(ProbeSiteOffset(sites[i]), text);
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

// Issue 13: exit checks. Every way out of a function runs a check with the
// function on the stack: the rest of the body goes into try{…}finally{@},
// after the directives and the entry check, before the body's `}` on the
// same line; ASI before that `}` still ends the last statement. A body that
// runs no other code (no call, `new`, `await`, `yield`, spread) needs none.
TEST(ProbeSites, ExitChecksWrapBodiesInTryFinally) {
  EXPECT_EQ(
      Edit("function f(a) { 'use strict'\n  return a.exec(s) }\n"
           "const g = async () => { await x; for (;;) y() }, h = () => 1;\n"
           "class K extends B { constructor() { super(); } get v() { return 1 "
           "} m(x) { if (x) return typeof (x) } }\n",
           true),
      "function f(a) { 'use strict';@try{\n  return a.exec(s) }finally{@}}\n"
      "const g = async () => {@try{ await x; for (;;) {@y()} }finally{@}}, "
      "h = () => 1;\n"
      "class K extends B { constructor() {@try{ super(); }finally{@}} get "
      "v() {@ return 1 } m(x) {@ if (x) return typeof (x) } }\n");
  // An empty body has no tail.
  EXPECT_EQ(Edit("function e() {} function d() { 'use strict' }", true),
            "function e() {@} function d() { 'use strict';@ }");
}

// An arrow's expression body that runs other code gets both checks; it ends
// at `,`, `;`, a closer, a `:` of no `?` of its own, or a line break where
// ASI applies.
TEST(ProbeSites, ArrowExpressionBodiesBecomeBlocks) {
  EXPECT_EQ(
      Edit("f(x => g(x), (a, b) => c ? a() : b, x => x * 2);\n"
           "g = c ? y => y : z => ({ ...z }), h = a => b => f(a + b)\n"
           "k = async v =>\n  await v\n(l)\n",
           true),
      "f(x => {@try{return(g(x))}finally{@}}, (a, b) => {@try{return(c ? "
      "a() : b)}finally{@}}, x => x * 2);\n"
      "g = c ? y => y : z => {@try{return(({ ...z }))}finally{@}}, h = a "
      "=> {@try{return(b => {@try{return(f(a + b))}finally{@}})}finally{@}}\n"
      "k = async v =>\n  {@try{return(await v\n(l))}finally{@}}\n");
  // Without exit checks an expression body stays as it is.
  EXPECT_EQ(Edit("f(x => g(x))"), "f(x => g(x))");
}

// A function declared directly in a body would become lexical inside the
// try block (`var g` beside it, or a second strict `function g`, would be
// early errors): such a body keeps its entry check only, and is counted.
TEST(ProbeSites, BodiesDeclaringFunctionsAreNotWrapped) {
  ProbeSiteInfo info;
  EXPECT_EQ(
      Edit("function f() { var g; function g() { return 1 } return g() }\n"
           "function h() { x = function () { return y() }; async function a() "
           "{} }\n"
           "function k() { if (x) { function n() {} } return (function m() "
           "{})() }\n",
           true, &info),
      "function f() {@ var g; function g() {@ return 1 } return g() }\n"
      "function h() {@ x = function () {@try{ return y() }finally{@}}; async "
      "function a() {@} }\n"
      "function k() {@try{ if (x) { function n() {@} } return (function m() "
      "{@})() }finally{@}}\n");
  EXPECT_EQ(info.unguarded, 2u);
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

}  // namespace
}  // namespace webprof
