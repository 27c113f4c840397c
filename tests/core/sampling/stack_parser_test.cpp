// Error.stack parsing against captured fixtures (tests/fixtures/stacks/) and
// hand-written edge cases; invariants over every fixture.
#include "sampling/stack_parser.h"

#include <dirent.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace webprof {
namespace {

std::string Dir(const std::string& engine) {
  return std::string(WEBPROF_FIXTURES_DIR) + "/stacks/" + engine;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

std::vector<std::string> ListTxt(const std::string& dir) {
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 4 && n.substr(n.size() - 4) == ".txt")
        files.push_back(dir + "/" + n);
    }
    closedir(d);
  }
  return files;
}

bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// The innermost frame of each capture case (tests/fixtures/stacks/capture/).
struct Case {
  const char* file;
  const char* name;
  const char* url_suffix;  // "" = no url expected (eval code)
  uint32_t line;
};
const Case kCases[] = {
    {"declaration", "declared", "cases.js", 8},
    {"named_expression", "namedExpression", "cases.js", 10},
    {"anonymous_expression", "", "cases.js", 13},
    {"arrow_variable", "arrowVar", "cases.js", 15},
    {"class_method", "method", "cases.js", 19},
    {"getter", "get v", "cases.js", 20},
    {"setter", "set v", "cases.js", 21},
    {"constructor", "K", "cases.js", 18},
    {"static_method", "sm", "cases.js", 22},
    {"object_literal_method", "om", "cases.js", 30},
    {"builtin_callback", "forEachCb", "cases.js", 34},
    {"eval_code", "", "", 1},
    {"bound_function", "target", "cases.js", 38},
    {"generator", "gen", "cases.js", 39},
    {"deep20", "recurse", "cases.js", 41},
    {"async_after_await", "asyncInner", "cases.js", 45},
    {"promise_then", "thenCb", "cases.js", 49},
    {"inline", "inlineFunction", "page.html", 7},
    {"blob_url", "fromBlob", "", 1},
    {"data_url", "fromData", "", 1},
    {"wasm", "jsImport", "page.html", 27},
    {"module_function", "moduleFunction", "module.mjs", 2},
    {"module_arrow", "moduleArrow", "module.mjs", 3},
    {"module_top_level", "", "module-worker.html", 7},
    {"worker", "workerFunction", "worker.js", 2},
};

// Where an engine's text legitimately says less: JavaScriptCore names an
// accessor by its key alone, and its eval frame has no location at all.
struct Override {
  const char* dir;
  const char* file;
  const char* name;
  uint32_t line;
};
const Override kOverrides[] = {
    {"jsc-webkit", "getter", "v", 20},
    {"jsc-webkit", "setter", "v", 21},
    {"jsc-webkit", "eval_code", "", 0},
};

struct Engine {
  const char* dir;
  StackFormat format;
};
const Engine kCaptured[] = {
    {"v8-chromium", StackFormat::kV8},
    {"v8-node", StackFormat::kV8},
    {"spidermonkey-firefox", StackFormat::kSpiderMonkey},
    {"jsc-webkit", StackFormat::kJavaScriptCore}};

// JavaScriptCore text without a line only it prints ("global code@",
// "[native code]", …) is "name@url:l:c" lines that read the same under
// SpiderMonkey's rules: detection may say either.
bool DetectedAs(std::string_view text, StackFormat want) {
  StackFormat got = DetectStackFormat(text);
  if (want == StackFormat::kJavaScriptCore && got == StackFormat::kSpiderMonkey)
    return true;
  return got == want;
}

TEST(StackParserFixtures, InnermostFrameOfEveryCase) {
  int checked = 0;
  for (const Engine& e : kCaptured) {
    for (const Case& c : kCases) {
      std::string text;
      if (!ReadFile(Dir(e.dir) + "/" + c.file + ".txt", &text))
        continue;  // browser-only case
      SCOPED_TRACE(std::string(e.dir) + "/" + c.file);
      EXPECT_TRUE(DetectedAs(text, e.format));
      std::vector<ParsedFrame> frames, as_engine;
      ASSERT_EQ(ParseStack(text, StackFormat::kAuto, &frames), Status::kOk);
      ASSERT_EQ(ParseStack(text, e.format, &as_engine), Status::kOk);
      ASSERT_FALSE(frames.empty());
      ASSERT_EQ(as_engine.size(), frames.size());
      for (size_t i = 0; i < frames.size(); ++i)
        EXPECT_EQ(as_engine[i].name, frames[i].name);
      const ParsedFrame& f = frames[0];
      std::string_view name = c.name;
      uint32_t line = c.line;
      for (const Override& o : kOverrides)
        if (std::string_view(o.dir) == e.dir &&
            std::string_view(o.file) == c.file)
          name = o.name, line = o.line;
      EXPECT_EQ(f.name, name);
      EXPECT_EQ(f.line, line);
      if (line) EXPECT_GT(f.column, 0u);
      if (std::string_view(c.url_suffix).empty()) {
        if (std::string(c.file) == "eval_code" && line) {
          EXPECT_TRUE(f.url.empty());
          EXPECT_TRUE(EndsWith(f.script_url, "cases.js")) << f.script_url;
        }
      } else {
        EXPECT_TRUE(EndsWith(f.url, c.url_suffix)) << f.url;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 80);  // 17 node + 21 chromium + 21 firefox + 25 webkit
}

TEST(StackParserFixtures, UrlsKeepPortsQueriesFragmentsAndSchemes) {
  std::vector<ParsedFrame> f;
  std::string t;
  ASSERT_TRUE(ReadFile(Dir("v8-chromium") + "/query_fragment.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  EXPECT_EQ(f[0].url,
            "http://127.0.0.1:8931/extra.js?v=1&x=2");  // V8 drops #frag
  EXPECT_EQ(f[0].line, 2u);
  EXPECT_EQ(f[0].column, 37u);
  ASSERT_TRUE(
      ReadFile(Dir("spidermonkey-firefox") + "/query_fragment.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  EXPECT_EQ(f[0].url, "http://127.0.0.1:8932/extra.js?v=1&x=2#frag");
  ASSERT_TRUE(ReadFile(Dir("v8-chromium") + "/blob_url.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  EXPECT_EQ(f[0].url.substr(0, 27), "blob:http://127.0.0.1:8931/");
  EXPECT_EQ(f[0].column, 30u);
  ASSERT_TRUE(ReadFile(Dir("spidermonkey-firefox") + "/data_url.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  EXPECT_EQ(f[0].url.substr(0, 21), "data:text/javascript,");
  EXPECT_EQ(f[0].line, 1u);
}

TEST(StackParserFixtures, BuiltinsAsyncEvalAndWasmFrames) {
  std::vector<ParsedFrame> f;
  std::string t;
  ASSERT_TRUE(ReadFile(Dir("v8-chromium") + "/builtin_callback.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  EXPECT_EQ(f[1].name, "forEach");  // "Array.forEach (<anonymous>)"
  EXPECT_TRUE(f[1].url.empty());
  EXPECT_TRUE(f[1].script_url.empty());
  EXPECT_EQ(f[1].line, 0u);

  ASSERT_TRUE(ReadFile(Dir("v8-node") + "/async_after_await.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_FALSE(f[0].is_async);
  EXPECT_TRUE(f[1].is_async);
  EXPECT_EQ(f[1].name, "asyncOuter");
  EXPECT_TRUE(f[2].is_async);
  EXPECT_EQ(f[2].name, "");

  ASSERT_TRUE(ReadFile(Dir("v8-chromium") + "/eval_code.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  EXPECT_EQ(f[0].script_url, "http://127.0.0.1:8931/cases.js");
  EXPECT_EQ(f[0].column, 1u);

  ASSERT_TRUE(ReadFile(Dir("v8-chromium") + "/wasm.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_TRUE(f[1].is_wasm);
  EXPECT_EQ(f[1].url, "wasm://wasm/99d086be");
  EXPECT_EQ(f[1].line, 0u);
  EXPECT_EQ(f[1].column, 0x29u + 1);

  ASSERT_TRUE(ReadFile(Dir("spidermonkey-firefox") + "/wasm.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_TRUE(f[1].is_wasm);
  EXPECT_EQ(f[1].script_url, "http://127.0.0.1:8932/page.html");
  EXPECT_EQ(f[1].column, 0x29u + 1);

  // `new Function` code: V8 prints "eval", SpiderMonkey the real name.
  ASSERT_TRUE(ReadFile(Dir("spidermonkey-firefox") + "/new_function.txt", &t));
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  EXPECT_EQ(f[0].name, "anonymous");
  EXPECT_EQ(f[0].line, 3u);
  EXPECT_EQ(f[0].column, 8u);
  EXPECT_EQ(f[1].name, "fnCase");
}

TEST(StackParserHandwritten, V8) {
  std::string t;
  ASSERT_TRUE(ReadFile(Dir("v8-handwritten") + "/assorted.txt", &t));
  std::vector<ParsedFrame> f;
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  ASSERT_EQ(f.size(), 11u);
  EXPECT_EQ(f[0].name, "m");
  EXPECT_EQ(f[0].url, "https://example.com:8443/app.js?v=2");
  EXPECT_EQ(f[0].line, 10u);
  EXPECT_EQ(f[0].column, 5u);
  EXPECT_EQ(f[1].name, "");  // new <anonymous>
  EXPECT_EQ(f[2].name, "");  // Object.<anonymous>
  EXPECT_EQ(f[3].name, "[Symbol.iterator]");
  EXPECT_EQ(f[4].name, "$compute");
  EXPECT_TRUE(f[4].is_wasm);
  EXPECT_EQ(f[4].column, 0x1a2bu + 1);
  EXPECT_EQ(f[5].name, "");
  EXPECT_EQ(f[5].script_url,
            "https://cdn.example.net/lib.js");  // innermost real script
  EXPECT_EQ(f[5].line, 3u);
  EXPECT_EQ(f[5].column, 4u);
  EXPECT_TRUE(f[6].url.empty());  // native
  EXPECT_TRUE(f[7].url.empty());  // <anonymous>
  EXPECT_EQ(f[8].name, "");
  EXPECT_EQ(f[8].line, 20u);
  EXPECT_TRUE(f[9].is_async);
  EXPECT_EQ(f[9].name, "all");
  EXPECT_TRUE(f[9].url.empty());
  EXPECT_TRUE(f[10].is_async);
}

TEST(StackParserHandwritten, SpiderMonkey) {
  std::string t;
  ASSERT_TRUE(ReadFile(Dir("spidermonkey-handwritten") + "/assorted.txt", &t));
  std::vector<ParsedFrame> f;
  EXPECT_EQ(DetectStackFormat(t), StackFormat::kSpiderMonkey);
  ASSERT_EQ(ParseStack(t, StackFormat::kAuto, &f), Status::kOk);
  ASSERT_EQ(f.size(), 8u);
  EXPECT_EQ(f[0].name, "");
  EXPECT_EQ(f[0].url, "https://example.com:8443/app.js?v=2#top");
  EXPECT_EQ(f[1].name, "get v");
  EXPECT_EQ(f[2].name, "inner");
  EXPECT_EQ(f[3].name, "[Symbol.iterator]");
  EXPECT_EQ(f[4].script_url, "https://example.com/a.js");
  EXPECT_TRUE(f[4].url.empty());
  EXPECT_EQ(f[4].line, 2u);
  EXPECT_EQ(f[4].column, 3u);
  EXPECT_TRUE(f[5].url.empty());  // self-hosted builtin
  EXPECT_FALSE(f[6].is_async);
  EXPECT_TRUE(f[7].is_async);
  EXPECT_EQ(f[7].name, "run");
}

// Captured in WebKitGTK 2.50 (capture/webkit-capture.mjs): the shapes only
// JavaScriptCore prints.
TEST(StackParserFixtures, JavaScriptCoreShapes) {
  std::string t;  // the frames of the latest parse are views into t
  std::vector<ParsedFrame> f;
  auto parse = [&](const char* file, std::vector<ParsedFrame>* out) {
    ASSERT_TRUE(ReadFile(Dir("jsc-webkit") + "/" + file + ".txt", &t));
    ASSERT_EQ(ParseStack(t, StackFormat::kAuto, out), Status::kOk);
  };
  parse("anonymous_expression", &f);  // @url, map@[native code], @url
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].name, "");
  EXPECT_TRUE(EndsWith(f[0].url, "/cases.js"));
  EXPECT_EQ(f[1].name, "map");
  EXPECT_TRUE(f[1].url.empty());
  EXPECT_EQ(f[1].line, 0u);
  parse("eval_code", &f);  // eval code@, eval@[native code]
  EXPECT_EQ(f[0].name, "");
  EXPECT_TRUE(f[0].url.empty());
  EXPECT_EQ(f[1].name, "eval");
  EXPECT_EQ(f[2].name, "evalCase");
  parse("new_function", &f);  // anonymous@ (no location)
  EXPECT_EQ(f[0].name, "anonymous");
  EXPECT_TRUE(f[0].url.empty());
  parse("wasm", &f);  // 1@<?>:wasm-function[1]
  ASSERT_EQ(f.size(), 3u);
  EXPECT_TRUE(f[1].is_wasm);
  EXPECT_EQ(f[1].name, "1");
  EXPECT_TRUE(f[1].url.empty());
  EXPECT_EQ(f[2].line, 28u);
  parse("declaration", &f);  // ends in global code@page.html
  EXPECT_EQ(f.back().name, "");
  EXPECT_TRUE(EndsWith(f.back().url, "/page.html"));
  parse("module_function", &f);  // module code@document
  EXPECT_EQ(f[1].name, "");
  EXPECT_TRUE(EndsWith(f[1].url, "/module-worker.html"));
  parse("worker", &f);  // a worker's global code
  EXPECT_EQ(f[1].name, "");
  EXPECT_TRUE(EndsWith(f[1].url, "/worker.js"));
  // The script was loaded as extra.js?v=1&x=2#frag: JSC prints neither.
  parse("query_fragment", &f);
  EXPECT_EQ(f[0].url, "http://127.0.0.1:8932/extra.js");
  // No async frames past an await.
  parse("async_after_await", &f);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_FALSE(f[0].is_async);
}

TEST(StackParser, MalformedAndEmpty) {
  std::vector<ParsedFrame> f;
  EXPECT_EQ(ParseStack("", StackFormat::kAuto, &f), Status::kOk);
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(ParseStack("Error: only a message", StackFormat::kAuto, &f),
            Status::kOk);
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(
      ParseStack("Error\n    at f (u:1:2)\nnot a frame", StackFormat::kV8, &f),
      Status::kMalformedStack);
  ASSERT_EQ(f.size(), 1u);  // frames before the bad line are kept
  EXPECT_EQ(ParseStack("f@u:1:2\ngarbage line", StackFormat::kSpiderMonkey, &f),
            Status::kMalformedStack);
  EXPECT_EQ(ParseStack("x", static_cast<StackFormat>(9), &f),
            Status::kInvalidArgument);
  // A position that overflows uint32 stays part of the url, never wraps.
  EXPECT_EQ(ParseStack("f@u:99999999999:2", StackFormat::kSpiderMonkey, &f),
            Status::kOk);
  EXPECT_EQ(f[0].line, 0u);
  EXPECT_EQ(f[0].url, "u:99999999999:2");
  // Line 0 is no line (positions are 1-based): no column either (a fuzzer
  // find, "@@:@:0:072").
  EXPECT_EQ(ParseStack("@@:@:0:072", StackFormat::kAuto, &f), Status::kOk);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 0u);
  EXPECT_EQ(f[0].column, 0u);
}

// Invariants over every fixture: CRLF and LF give the same frames, every
// prefix of whole lines parses to a prefix of the frames, and no name keeps
// engine decoration.
TEST(StackParserInvariants, AllFixtures) {
  const char* dirs[] = {"v8-chromium",
                        "v8-node",
                        "spidermonkey-firefox",
                        "v8-handwritten",
                        "spidermonkey-handwritten",
                        "jsc-webkit"};
  int files = 0;
  for (const char* d : dirs) {
    for (const std::string& path : ListTxt(Dir(d))) {
      SCOPED_TRACE(path);
      std::string t;
      ASSERT_TRUE(ReadFile(path, &t));
      ++files;
      std::vector<ParsedFrame> f, g;
      StackFormat fmt = DetectStackFormat(t);
      ASSERT_EQ(ParseStack(t, fmt, &f), Status::kOk);
      ASSERT_FALSE(f.empty());
      for (const ParsedFrame& x : f) {
        EXPECT_EQ(x.name.find(" ("), std::string_view::npos);
        EXPECT_NE(x.name.substr(0, 6), "async ");
        EXPECT_NE(x.name.substr(0, 4), "new ");
        EXPECT_EQ(x.name.find('@'), std::string_view::npos);
        if (x.line == 0 && !x.is_wasm) EXPECT_EQ(x.column, 0u);
        if (!x.url.empty() && !x.is_wasm) EXPECT_EQ(x.url, x.script_url);
      }
      std::string crlf;
      for (char c : t) {
        if (c == '\n') crlf += '\r';
        crlf += c;
      }
      ASSERT_EQ(ParseStack(crlf, fmt, &g), Status::kOk);
      ASSERT_EQ(g.size(), f.size());
      for (size_t i = 0; i < f.size(); ++i) {
        EXPECT_EQ(g[i].name, f[i].name);
        EXPECT_EQ(g[i].url, f[i].url);
        EXPECT_EQ(g[i].column, f[i].column);
      }
      for (size_t cut = t.find('\n'); cut != std::string::npos;
           cut = t.find('\n', cut + 1)) {
        ASSERT_EQ(ParseStack(std::string_view(t).substr(0, cut), fmt, &g),
                  Status::kOk);
        ASSERT_LE(g.size(), f.size());
        for (size_t i = 0; i < g.size(); ++i) EXPECT_EQ(g[i].name, f[i].name);
      }
    }
  }
  EXPECT_GE(files, 80);
}

// Random byte edits never crash and give a defined status; views stay in the
// text.
TEST(StackParserInvariants, MutatedInputIsSafe) {
  std::string base;
  ASSERT_TRUE(ReadFile(Dir("v8-handwritten") + "/assorted.txt", &base));
  std::string sm;
  ASSERT_TRUE(ReadFile(Dir("spidermonkey-handwritten") + "/assorted.txt", &sm));
  std::mt19937 rng(1234);
  const char alphabet[] = "@:()[]<> \n0123456789atx/.*\r";
  std::vector<ParsedFrame> f;
  for (int round = 0; round < 4000; ++round) {
    std::string t = (round & 1) ? base : sm;
    int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e)
      t[rng() % t.size()] = alphabet[rng() % (sizeof(alphabet) - 1)];
    Status s = ParseStack(t, StackFormat::kAuto, &f);
    ASSERT_TRUE(s == Status::kOk || s == Status::kMalformedStack);
    const char* lo = t.data();
    const char* hi = t.data() + t.size();
    for (const ParsedFrame& x : f) {
      for (std::string_view v : {x.name, x.url, x.script_url}) {
        if (!v.empty()) {
          ASSERT_GE(v.data(), lo);
          ASSERT_LE(v.data() + v.size(), hi);
        }
      }
    }
  }
}

}  // namespace
}  // namespace webprof
