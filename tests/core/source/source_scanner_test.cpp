// Source scanner: Chromium's own frame positions as fixtures, tokenizer
// corner cases (strings, templates, regex vs division, comments), HTML
// inline scripts, limits, and robustness on random input.
#include "source/source_scanner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace webprof {
namespace {

std::string ReadFixture(const std::string& rel) {
  std::ifstream in(std::string(WEBPROF_FIXTURES_DIR) + "/" + rel,
                   std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const FunctionDefinition* FindDef(const SourceScan& s, uint32_t line,
                                  uint32_t col) {
  for (const auto& f : s.functions())
    if (f.definition.line == line && f.definition.column == col) return &f;
  return nullptr;
}

SourceScan Scan(const std::string& src) {
  SourceScan s;
  EXPECT_EQ(s.ScanScript(src, ScanLimits()), Status::kOk) << src;
  return s;
}

// Every frame Chromium's native Profiler reported is a definition the
// scanner finds, with the same name.
TEST(SourceScannerChromium, MatchesNativeFramesOfEveryKind) {
  std::string js = ReadFixture("scanner/chromium156/kinds.js");
  std::string html = ReadFixture("scanner/chromium156/kinds.html");
  SourceScan js_scan, html_scan;
  ASSERT_EQ(js_scan.ScanScript(js, ScanLimits()), Status::kOk);
  ASSERT_EQ(html_scan.ScanHtml(html, ScanLimits()), Status::kOk);
  EXPECT_EQ(html_scan.scripts_scanned(), 2u);
  std::istringstream frames(
      ReadFixture("scanner/chromium156/kinds.frames.txt"));
  std::string row;
  int checked = 0;
  while (std::getline(frames, row)) {
    if (row.empty() || row[0] == '#') continue;
    std::istringstream r(row);
    std::string resource, name;
    uint32_t line, col;
    r >> resource >> line >> col;
    std::getline(r, name);
    if (!name.empty() && name[0] == ' ') name.erase(0, 1);
    const SourceScan& s = resource == "kinds.js" ? js_scan : html_scan;
    const FunctionDefinition* f = FindDef(s, line, col);
    ASSERT_NE(f, nullptr) << row;
    EXPECT_EQ(f->name, name) << row;
    ++checked;
  }
  EXPECT_EQ(checked, 28);
}

TEST(SourceScannerResolve, InnermostFunctionOrTopLevel) {
  SourceScan s = Scan(
      "function outer(a) {\n"
      "  const inner = (b) => {\n"
      "    return b + 1;\n"
      "  };\n"
      "  return inner(a);\n"
      "}\n"
      "outer(1);\n");
  const FunctionDefinition* f = s.Resolve(3, 5);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "inner");
  EXPECT_EQ(f->definition, (SourcePosition{2, 17}));
  f = s.Resolve(5, 10);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "outer");
  EXPECT_EQ(f->definition, (SourcePosition{1, 15}));
  EXPECT_EQ(s.Resolve(7, 1), nullptr);
  EXPECT_EQ(s.functions()[1].parent, 0u);
}

TEST(SourceScannerResolve, ExpressionArrowEndsAtCommaAndNewStatement) {
  SourceScan s = Scan(
      "const f = x => x * 2, g = y => y\n"
      "call(g)\n");
  ASSERT_EQ(s.functions().size(), 2u);
  EXPECT_EQ(s.Resolve(1, 17)->name, "f");
  EXPECT_EQ(s.Resolve(1, 32)->name, "g");
  EXPECT_EQ(s.Resolve(2, 1), nullptr);
}

TEST(SourceScannerTokens, StringsCommentsAndTemplatesHideFunctions) {
  SourceScan s = Scan(
      "const a = 'function x() {}';\n"
      "// function y() {}\n"
      "/* function z() {} */\n"
      "const t = `function w() {} ${ `${ (q) => q }` } tail }`;\n"
      "const b = \"(\\\"\";\n");
  ASSERT_EQ(s.functions().size(), 1u);
  EXPECT_EQ(s.functions()[0].definition, (SourcePosition{4, 35}));
  EXPECT_EQ(s.functions()[0].name, "");
}

TEST(SourceScannerTokens, RegexVersusDivision) {
  SourceScan s = Scan(
      "const r = /[/(]{/g; const d = a / b / c;\n"
      "function f() { return /}/.test(x) ? 1 : 2 / 3; }\n"
      "const g = (x) => x.replace(/\\/(/, '');\n");
  ASSERT_EQ(s.functions().size(), 2u);
  EXPECT_EQ(s.functions()[0].name, "f");
  EXPECT_EQ(s.functions()[1].name, "g");
  EXPECT_EQ(s.functions()[1].definition, (SourcePosition{3, 11}));
}

TEST(SourceScannerTokens, ColumnsCountUtf16Units) {
  // U+1F600 is 4 UTF-8 bytes, 2 UTF-16 units; U+00E9 is 2 bytes, 1 unit.
  SourceScan s =
      Scan("const s = '\xF0\x9F\x98\x80\xC3\xA9'; function f() {}\n");
  ASSERT_EQ(s.functions().size(), 1u);
  EXPECT_EQ(s.functions()[0].definition, (SourcePosition{1, 28}));
}

TEST(SourceScannerNames, BindingsKeysAndAnonymous) {
  SourceScan s = Scan(
      "a.b = function () {};\n"
      "x = () => 1;\n"
      "const o = { 'quoted': function () {}, 7: () => 1, ['c']: () => 2 };\n"
      "class C extends B { #p() {} static async *g() {} }\n"
      "const D = class { constructor() {} };\n"
      "export default function () {}\n"
      "switch (v) { case 1: { if (x) { y(); } } }\n");
  std::vector<std::string> names;
  for (const auto& f : s.functions()) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"", "x", "quoted", "7", "", "#p",
                                             "g", "D", "default"}));
}

TEST(SourceScannerHtml, InlineScriptsOffsetToTheDocument) {
  std::string doc =
      "<!doctype html><title>t</title>\n"
      "<!-- <script>function hidden() {}</script> -->\n"
      "<script src=\"x.js\">function ignored() {}</script>\n"
      "<script type=\"application/json\">{\"a\": 1}</script>\n"
      "  <script type=module>function m() {}\n"
      "function n() {}</script><SCRIPT>broken(</SCRIPT>\n";
  SourceScan s;
  ASSERT_EQ(s.ScanHtml(doc, ScanLimits()), Status::kOk);
  EXPECT_EQ(s.scripts_scanned(), 1u);
  EXPECT_EQ(s.scripts_skipped(), 1u);
  ASSERT_EQ(s.functions().size(), 2u);
  EXPECT_EQ(s.functions()[0].definition, (SourcePosition{5, 33}));
  EXPECT_EQ(s.functions()[1].definition, (SourcePosition{6, 11}));
}

TEST(SourceScannerLimits, MalformedAndHugeSourcesAreNotScanned) {
  SourceScan s;
  EXPECT_EQ(s.ScanScript("function f() {", ScanLimits()),
            Status::kSourceUnscannable);
  EXPECT_EQ(s.ScanScript("const s = 'open", ScanLimits()),
            Status::kSourceUnscannable);
  EXPECT_EQ(s.ScanScript("/* open", ScanLimits()), Status::kSourceUnscannable);
  EXPECT_EQ(s.ScanScript("`${ open", ScanLimits()), Status::kSourceUnscannable);
  EXPECT_EQ(s.ScanScript("(]", ScanLimits()), Status::kSourceUnscannable);
  EXPECT_TRUE(s.functions().empty());
  ScanLimits small;
  small.max_bytes = 8;
  EXPECT_EQ(s.ScanScript("function f() {}", small), Status::kSourceTooLarge);
  std::string deep(5000, '(');
  deep += std::string(5000, ')');
  EXPECT_EQ(s.ScanScript(deep, ScanLimits()), Status::kSourceUnscannable);
}

// Random bytes and random mixes of JS fragments: no crash, no hang, and a
// successful scan always yields well-formed, properly nested ranges.
TEST(SourceScannerFuzz, RandomInputNeverBreaksTheScanner) {
  const char* pieces[] = {"function",
                          " f",
                          "(",
                          ")",
                          "{",
                          "}",
                          "=>",
                          "'",
                          "\"",
                          "`",
                          "${",
                          "/",
                          "//",
                          "/*",
                          "*/",
                          "\n",
                          "x",
                          "=",
                          ",",
                          ";",
                          "[",
                          "]",
                          "async",
                          "class",
                          "get",
                          ":",
                          "\\",
                          "\xE2\x80\xA8",
                          "\xF0\x9F\x98\x80"};
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {
    std::string src;
    int n = rng() % 60;
    for (int i = 0; i < n; ++i) {
      if (round % 3 == 0)
        src += static_cast<char>(rng() & 0xFF);
      else
        src += pieces[rng() % (sizeof(pieces) / sizeof(*pieces))];
    }
    SourceScan s;
    Status st = s.ScanScript(src, ScanLimits());
    ASSERT_TRUE(st == Status::kOk || st == Status::kSourceUnscannable);
    for (const auto& f : s.functions()) {
      ASSERT_TRUE(f.begin < f.end || f.begin == f.end);
      if (f.parent != FunctionDefinition::kNone) {
        const auto& p = s.functions()[f.parent];
        ASSERT_TRUE(p.begin <= f.begin && f.end <= p.end);
      }
    }
    s.ScanHtml("<script>" + src + "</script>", ScanLimits());
  }
}

// Many comments before one script: the document scan stays linear.
TEST(SourceScannerHtml, ManyCommentsThenAScript) {
  std::string doc;
  for (int i = 0; i < 20000; ++i) doc += "<!-- c -->\n";
  doc += "<script>function late() {}</script>";
  SourceScan s;
  ASSERT_EQ(s.ScanHtml(doc, ScanLimits()), Status::kOk);
  ASSERT_EQ(s.functions().size(), 1u);
  EXPECT_EQ(s.functions()[0].definition, (SourcePosition{20001, 22}));
}

// Top-level code: Chromium reports "" at the script's first character.
TEST(SourceScannerChromium, TopLevelFramesAreScriptStarts) {
  SourceScan html, js;
  ASSERT_EQ(html.ScanHtml(ReadFixture("scanner/chromium156/toplevel.html"),
                          ScanLimits()),
            Status::kOk);
  ASSERT_EQ(js.ScanScript(ReadFixture("scanner/chromium156/toplevel.js"),
                          ScanLimits()),
            Status::kOk);
  SourcePosition p;
  ASSERT_TRUE(html.ScriptStart(6, 3, &p));
  EXPECT_EQ(p, (SourcePosition{5, 9}));
  ASSERT_TRUE(html.ScriptStart(11, 3, &p));
  EXPECT_EQ(p, (SourcePosition{9, 9}));
  EXPECT_FALSE(html.ScriptStart(2, 1, &p));  // markup, not script
  ASSERT_TRUE(js.ScriptStart(5, 3, &p));
  EXPECT_EQ(p, (SourcePosition{1, 1}));
}

}  // namespace
}  // namespace webprof
