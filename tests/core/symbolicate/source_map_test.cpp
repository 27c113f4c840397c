// The v3 decoder on hand-made maps whose answers are known, index maps, the
// function-name rule, and malformed maps (each a specific message, never a
// partial map). Maps made by real tools are tested from Node
// (tests/js/symbolicate.test.mjs), which generates them with esbuild, terser,
// TypeScript and webpack.
#include "symbolicate/source_map.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "symbolicate/symbolicator.h"

namespace webprof {
namespace {

// Generated:  line 1 "AAAA,CAAC;" -> col 0 -> src0 0:0, col 1 -> src0 0:1
//             line 2 (empty), line 3 "AACA,IAAIA" -> col 0 -> src0 1:1,
//             col 4 -> src0 1:5 named names[0] (all 0-based).
const char* kSimple = R"({"version":3,"sources":["a.js"],"names":["hello"],
  "mappings":"AAAA,CAAC;;AACA,IAAIA"})";

TEST(SourceMap, DecodesSegmentsAndLooksUpTheGreatestLowerBound) {
  SourceMap m;
  std::string err;
  ASSERT_EQ(m.Parse(kSimple, "https://x.test/dist/app.js.map", &err),
            Status::kOk)
      << err;
  EXPECT_EQ(m.segment_count(), 4u);
  ASSERT_EQ(m.sources().size(), 1u);
  EXPECT_EQ(m.sources()[0], "https://x.test/dist/a.js");
  OriginalPosition p;
  ASSERT_TRUE(m.Lookup(1, 1, &p));
  EXPECT_EQ(p.line, 1u);
  EXPECT_EQ(p.column, 1u);
  ASSERT_TRUE(m.Lookup(1, 50, &p));  // after the last segment of the line
  EXPECT_EQ(p.column, 2u);
  EXPECT_FALSE(m.Lookup(2, 1, &p));  // empty line
  ASSERT_TRUE(m.Lookup(3, 1, &p));
  EXPECT_EQ(p.line, 2u);
  EXPECT_EQ(p.column, 2u);  // original columns carry over from line 1
  EXPECT_EQ(p.name, OriginalPosition::kNone);
  ASSERT_TRUE(m.Lookup(3, 5, &p));
  EXPECT_EQ(p.line, 2u);
  EXPECT_EQ(p.column, 6u);
  ASSERT_NE(p.name, OriginalPosition::kNone);
  EXPECT_EQ(m.names()[p.name], "hello");
  EXPECT_FALSE(m.Lookup(4, 1, &p));  // past the last line
  EXPECT_FALSE(m.Lookup(0, 1, &p));
}

TEST(SourceMap, LargeAndNegativeVlqValues) {
  // "2HAAgB" : col 123, src +0, line +0, col +... ; "D" = -1.
  SourceMap m;
  std::string err;
  ASSERT_EQ(m.Parse(R"({"version":3,"sources":["s"],"names":[],
    "mappings":"2HAAgB,DAAD"})",
                    "", &err),
            Status::kOk)
      << err;
  OriginalPosition p;
  ASSERT_TRUE(m.Lookup(1, 124, &p));
  EXPECT_EQ(p.column, 17u);           // "gB" = 16
  ASSERT_TRUE(m.Lookup(1, 123, &p));  // col 122 after "D" (-1)
  EXPECT_EQ(p.column, 16u);
}

TEST(SourceMap, UnsortedSegmentsOfALineAreSorted) {
  SourceMap m;
  std::string err;
  ASSERT_EQ(
      m.Parse(
          R"({"version":3,"sources":["s"],"names":[],"mappings":"KAAK,LAAC"})",
          "", &err),
      Status::kOk);
  OriginalPosition p;
  ASSERT_TRUE(m.Lookup(1, 1, &p));  // gen col 5 - 5 = 0 -> orig col 5 + 1
  EXPECT_EQ(p.column, 7u);
  ASSERT_TRUE(m.Lookup(1, 6, &p));  // gen col 5 -> orig col 5
  EXPECT_EQ(p.column, 6u);
}

// One signed value as base64 VLQ.
std::string Vlq(int v) {
  unsigned u = v < 0 ? (unsigned(-v) << 1) | 1 : unsigned(v) << 1;
  std::string s;
  do {
    unsigned d = u & 31;
    u >>= 5;
    s += "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        [d | (u ? 32 : 0)];
  } while (u);
  return s;
}

TEST(SourceMap, LookupIsTheLastSegmentAtOrBeforeTheColumnOnLinesOfAnyLength) {
  // One line of n segments, gaps of 0..4 columns (0: two segments at one
  // column, the later one wins), segment i at original line i; every column
  // against a linear scan, for lengths around each power of two.
  for (int n : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 257}) {
    std::string mappings;
    std::vector<uint32_t> cols;
    uint32_t col = 3;
    for (int i = 0; i < n; ++i) {
      const uint32_t gap = i ? uint32_t(i * 7 % 5) : 3;
      if (i) {
        col += gap;
        mappings += ",";
      }
      mappings += Vlq(int(gap)) + "A" + Vlq(i ? 1 : 0) + "A";
      cols.push_back(col);
    }
    SourceMap m;
    std::string err;
    ASSERT_EQ(
        m.Parse(R"({"version":3,"sources":["s"],"names":[],"mappings":")" +
                    mappings + "\"}",
                "", &err),
        Status::kOk)
        << err;
    for (uint32_t c = 0; c <= col + 2; ++c) {
      int want = -1;
      for (int i = 0; i < n; ++i)
        if (cols[i] <= c) want = i;
      OriginalPosition p;
      ASSERT_EQ(m.Lookup(1, c + 1, &p), want >= 0) << "n " << n << " col " << c;
      if (want >= 0)
        EXPECT_EQ(p.line, uint32_t(want + 1)) << "n " << n << " col " << c;
    }
  }
}

TEST(SourceMap, SourceRootAndUrlResolution) {
  SourceMap m;
  std::string err;
  ASSERT_EQ(m.Parse(R"({"version":3,"sourceRoot":"../src/","sources":["./a.ts",
    "webpack:///b.ts","/abs/c.ts",null],"names":[],"mappings":"AAAA"})",
                    "https://x.test/static/js/main.js.map?v=1", &err),
            Status::kOk)
      << err;
  EXPECT_EQ(m.sources()[0], "https://x.test/static/src/a.ts");
  EXPECT_EQ(m.sources()[1], "webpack:///b.ts");
  EXPECT_EQ(m.sources()[2], "https://x.test/abs/c.ts");
  EXPECT_EQ(m.sources()[3], "");
  EXPECT_EQ(ResolveUrl("https://x.test/a/b.js", "//cdn.test/x/../y.js"),
            "https://cdn.test/y.js");
  EXPECT_EQ(ResolveUrl("https://x.test/a/b.js", "c/./d.js"),
            "https://x.test/a/c/d.js");
}

TEST(SourceMap, IndexMapSectionsAreFlattened) {
  SourceMap m;
  std::string err;
  ASSERT_EQ(m.Parse(R"({"version":3,"sections":[
    {"offset":{"line":0,"column":0},"map":{"version":3,"sources":["one.js"],"names":["f"],"mappings":"AAAAA"}},
    {"offset":{"line":0,"column":10},"map":{"version":3,"sources":["two.js"],"names":[],"mappings":"AACA;AACA"}},
    {"offset":{"line":5,"column":0},"map":{"version":3,"sources":["three.js"],"names":["g"],"mappings":"EAAEA"}}]})",
                    "https://x.test/app.js.map", &err),
            Status::kOk)
      << err;
  ASSERT_EQ(m.sources().size(), 3u);
  OriginalPosition p;
  ASSERT_TRUE(m.Lookup(1, 5, &p));
  EXPECT_EQ(m.sources()[p.source], "https://x.test/one.js");
  EXPECT_EQ(m.names()[p.name], "f");
  ASSERT_TRUE(m.Lookup(1, 11, &p));  // second section, shifted by 10
  EXPECT_EQ(m.sources()[p.source], "https://x.test/two.js");
  EXPECT_EQ(p.line, 2u);
  ASSERT_TRUE(m.Lookup(2, 1, &p));  // its second line is not shifted
  EXPECT_EQ(p.line, 3u);
  EXPECT_FALSE(m.Lookup(4, 1, &p));
  ASSERT_TRUE(m.Lookup(6, 3, &p));  // third section at line 5, col 2
  EXPECT_EQ(m.sources()[p.source], "https://x.test/three.js");
  EXPECT_EQ(p.column, 3u);
  EXPECT_EQ(m.names()[p.name], "g");
}

TEST(SourceMap, MalformedMapsSayWhatIsWrongAndLeaveNothing) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "expected an object"},
      {"[]", "expected an object"},
      {R"({"version":2,"sources":[],"names":[],"mappings":""})",
       "version must be 3"},
      {R"({"version":3,"sources":[],"names":[]})", "mappings is missing"},
      {R"({"version":3,"sources":["a"],"names":[],"mappings":"AA!A"})",
       "invalid base64 character at offset 2"},
      {R"({"version":3,"sources":["a"],"names":[],"mappings":"AAC"})",
       "1, 4 or 5 fields"},
      {R"({"version":3,"sources":["a"],"names":[],"mappings":"ACAA"})",
       "source index out of range"},
      {R"({"version":3,"sources":["a"],"names":[],"mappings":"AAAAA"})",
       "name index out of range"},
      {R"({"version":3,"sources":["a"],"names":[],"mappings":"AAAAAAA"})",
       "more than 5 fields"},
      {R"({"version":3,"sources":["a"],"names":[],"mappings":"AAAg"})",
       "cut off"},
      {R"({"version":3,"sources":["a"],"names":[],"mappings":"AAAggggggggB"})",
       "larger than 32 bits"},
      {R"({"version":3,"sources":["a"],"names":[],"mappings":"AAFA"})",
       "original line or column out of range"},
      {R"({"version":3,"sources":["a"],"names":[],"mappings":"AAAA"} x)",
       "text after"},
      {R"({"version":3,"sources":["a],"names":[],"mappings":"AAAA"})",
       "expected"},
      {R"({"version":3,"sections":[{"offset":{"line":0,"column":0},"url":"x.map"}]})",
       "url are not supported"},
      {R"({"version":3,"sections":[{"offset":{"line":1,"column":0},"map":{"version":3,"sources":["a"],"names":[],"mappings":"AAAA;AAAA"}},
         {"offset":{"line":1,"column":0},"map":{"version":3,"sources":["b"],"names":[],"mappings":"AAAA"}}]})",
       "overlap"},
  };
  for (const auto& [json, want] : cases) {
    SourceMap m;
    std::string err;
    EXPECT_EQ(m.Parse(json, "", &err), Status::kSourceMapInvalid) << json;
    EXPECT_NE(err.find(want), std::string::npos) << json << " -> " << err;
    EXPECT_EQ(m.segment_count(), 0u);
    EXPECT_TRUE(m.sources().empty());
    OriginalPosition p;
    EXPECT_FALSE(m.Lookup(1, 1, &p));
  }
}

TEST(SourceMap, EscapedStringsAndUnknownMembers) {
  SourceMap m;
  std::string err;
  ASSERT_EQ(m.Parse(R"({"x_google_ignoreList":[0],"file":"o.js","version":3,
    "sources":["d\u00e9j\u00e0 \"q\".js"],"sourcesContent":["function f(){}\n"],
    "names":["\ud83d\ude00"],"mappings":"AAAAA","extra":{"a":[1,2.5e3,true,null]}})",
                    "", &err),
            Status::kOk)
      << err;
  EXPECT_EQ(m.sources()[0], "d\xC3\xA9j\xC3\xA0 \"q\".js");
  EXPECT_EQ(m.names()[0], "\xF0\x9F\x98\x80");
  EXPECT_TRUE(m.has_content(0));
  EXPECT_EQ(m.content(0), "function f(){}\n");
}

// Original source (content): a named function, a method and an anonymous
// callback; generated: one minified line whose frames sit at each `(`.
TEST(ScriptSymbolicator, NamesFramesByTheOriginalFunctionHoldingThePoint) {
  // original:                      generated (one line):
  // 1 function parseInline(src) {  function a(b){return[1].map(c=>c)}
  // 2   return [1].map((x) => x);  ^col1      ^col11       ^col28
  // 3 }
  // Segments: gen col 0 -> 1:0; col 9 ("a") -> 1:9 name "parseInline";
  // col 10 "(" -> 1:20; col 27 "c" (arrow param) -> 2:18 (0-based).
  const char* map =
      R"({"version":3,"sources":["src/p.js"],"names":["parseInline"],
    "sourcesContent":["function parseInline(src) {\n  return [1].map((x) => x);\n}\n"],
    "mappings":"AAAA,SAASA,CAAW,iBACF"})";
  SourceMap m;
  std::string err;
  ASSERT_EQ(m.Parse(map, "https://x.test/app.js.map", &err), Status::kOk)
      << err;
  ScriptSymbolicator s(&m);
  OriginalFrame f;
  ASSERT_TRUE(s.Resolve(1, 11, &f));  // the `(` of function a
  EXPECT_TRUE(f.has_name);
  EXPECT_EQ(f.name, "parseInline");
  EXPECT_EQ(f.line, 1u);
  EXPECT_EQ(f.column, 21u);          // the original `(`
  ASSERT_TRUE(s.Resolve(1, 1, &f));  // mapped to the `function` keyword
  EXPECT_EQ(f.name, "parseInline");  // the function starting there
  EXPECT_EQ(f.column, 21u);
  ASSERT_TRUE(s.Resolve(1, 28, &f));  // the arrow's parameter
  EXPECT_EQ(f.name, "");  // an anonymous callback is "" by the spec name rule
  EXPECT_EQ(f.line, 2u);
  EXPECT_EQ(f.column, 18u);  // the arrow's `(`
  EXPECT_EQ(m.sources()[f.source], "https://x.test/src/p.js");
}

TEST(ScriptSymbolicator, WithoutContentTheSegmentNameIsUsed) {
  SourceMap m;
  std::string err;
  ASSERT_EQ(m.Parse(R"({"version":3,"sources":["p.js"],"names":["parseInline"],
    "mappings":"AAAA,SAASA"})",
                    "", &err),
            Status::kOk);
  ScriptSymbolicator s(&m);
  OriginalFrame f;
  ASSERT_TRUE(s.Resolve(1, 11, &f));
  EXPECT_TRUE(f.has_name);
  EXPECT_EQ(f.name, "parseInline");
  ASSERT_TRUE(s.Resolve(1, 2, &f));
  EXPECT_FALSE(f.has_name);  // keep the generated name
  EXPECT_FALSE(s.Resolve(2, 1, &f));
}

}  // namespace
}  // namespace webprof
