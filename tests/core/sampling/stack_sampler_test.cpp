// Visibility rules (own frames — for captures and loaded traces alike —,
// CORS-muted scripts, attributed builtins, async frames) and sampling into
// several sessions from one captured text.
#include "sampling/stack_sampler.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "support/v8_stack.h"
#include "trace/trace_loader.h"

namespace webprof {
namespace {

std::vector<std::string> Names(const StackSampler& s) {
  std::vector<std::string> v;
  for (const RawFrame& f : s.visible_frames()) v.emplace_back(f.name);
  return v;
}

using V = std::vector<std::string>;

TEST(StackSampler, VisibleFramesAreOutermostFirst) {
  StackSampler s;
  std::string text = V8(
      {"inner (https://a.test/x.js:1:1)", "outer (https://a.test/x.js:2:1)"});
  ASSERT_EQ(s.Capture(text), Status::kOk);
  EXPECT_EQ(Names(s), (V{"outer", "inner"}));
  EXPECT_EQ(s.visible_frames()[0].line, 2u);
}

TEST(StackSampler, OwnFramesByUrlPrefixAndNameMarker) {
  StackSampler s;
  s.AddOwnUrlPrefix("https://a.test/webprof/");
  s.SetOwnNameMarker("__webprof$");
  std::string text =
      V8({"capture (https://a.test/webprof/webprof.mjs:9:9)",
          "user (https://a.test/app.js:3:3)",
          "Array.forEach (<anonymous>)",  // called by webprof: hidden
          "__webprof$wrap (https://a.test/bundle.js:5:5)",
          "main (https://a.test/bundle.js:1:1)"});
  ASSERT_EQ(s.Capture(text), Status::kOk);
  EXPECT_EQ(Names(s), (V{"main", "user"}));
}

// The same rule decides for a trace another profiler recorded on the page
// (TraceLoader as sampled, e.g. Chromium's native trace): one rule.
TEST(StackSampler, ItsOwnFrameRuleAlsoFiltersALoadedTrace) {
  StackSampler s;
  s.AddOwnUrlPrefix("https://a.test/webprof/");
  s.SetOwnNameMarker("__webprof$");
  EXPECT_TRUE(s.IsOwnScript("https://a.test/webprof/webprof.mjs?v=1"));
  EXPECT_FALSE(s.IsOwnScript("https://a.test/app.js"));
  EXPECT_TRUE(s.IsOwnName("Object.__webprof$probe"));
  EXPECT_FALSE(s.IsOwnName("probe"));
  ProfilerTrace t;
  TraceLoader l(&t, LoadOptions{&s});
  ASSERT_EQ(l.AddResource("https://a.test/app.js"), Status::kOk);
  ASSERT_EQ(l.AddResource("https://a.test/webprof/webprof.mjs"), Status::kOk);
  ASSERT_EQ(l.AddFrame("main", 0, 1, 1), Status::kOk);
  ASSERT_EQ(l.AddFrame("__webprof$wrap", 0, 5, 5), Status::kOk);
  ASSERT_EQ(l.AddFrame("capture", 1, 9, 9), Status::kOk);
  ASSERT_EQ(l.AddFrame("user", 0, 3, 3), Status::kOk);
  const uint32_t stacks[] = {0, TraceLoader::kNone, 1, 0, 2, 1, 3, 2};
  ASSERT_EQ(l.AddStacks(stacks, 4), Status::kOk);
  SampleBuffer::Span span = l.ReserveSamples(1);
  const double row[2] = {1, 3};
  std::memcpy(span.data, row, sizeof row);
  ASSERT_EQ(l.CommitSamples(), Status::kOk);
  // main > user, as a capture of the same stack gives (test above).
  ASSERT_EQ(t.resources().size(), 1u);
  StackId leaf = t.samples()[0].stack;
  EXPECT_EQ(t.frame_name(t.stacks().Get(leaf).frame), "user");
  StackId root = t.stacks().Get(leaf).parent;
  EXPECT_EQ(t.frame_name(t.stacks().Get(root).frame), "main");
  EXPECT_TRUE(t.stacks().Get(root).parent.is_none());
}

// Chromium's native trace of a page running webprof from a data: URL core:
// the module's URL cut to 1024 characters, V8's bridge frames, and
// wasm-function[N] frames; each one's time goes to its page caller.
TEST(StackSampler, TheWasmCoreCutUrlAndBridgeFramesAreOwn) {
  std::string core = "data:application/wasm;base64,";
  while (core.size() < 300000) core += "AGFzbQEAAAABvAM8YAJ/fwBgAX8Bf2AD";
  StackSampler s;
  s.AddOwnUrl(std::string_view(core).substr(0, 4096));  // as JS gives it
  const std::string cut = core.substr(0, 1024);
  EXPECT_TRUE(s.IsOwnScript(core));
  EXPECT_TRUE(s.IsOwnScript(cut));
  EXPECT_TRUE(s.IsOwnScript(core.substr(0, StackSampler::kMinCutOwnUrl)));
  EXPECT_FALSE(s.IsOwnScript(core.substr(0, StackSampler::kMinCutOwnUrl - 1)));
  EXPECT_FALSE(s.IsOwnScript("data:application/wasm;base64,AGFzbQEAAAABBQ"));
  EXPECT_FALSE(s.IsOwnScript("data:"));
  EXPECT_FALSE(s.IsOwnScript(""));
  EXPECT_TRUE(s.IsOwnName("js-to-wasm"));
  EXPECT_TRUE(s.IsOwnName("wasm-to-js:ii:i"));
  EXPECT_FALSE(s.IsOwnName("js-to-wasmer"));
  // A short http core URL matches only itself (or a longer one it heads).
  StackSampler h;
  h.AddOwnUrl("https://cdn.test/webprof-core.wasm");
  EXPECT_TRUE(h.IsOwnScript("https://cdn.test/webprof-core.wasm"));
  EXPECT_FALSE(h.IsOwnScript("https://cdn.test/"));
  EXPECT_FALSE(h.IsOwnScript("https://cdn.test/app.wasm"));

  ProfilerTrace t;
  TraceLoader l(&t, LoadOptions{&s});
  ASSERT_EQ(l.AddResource("https://a.test/app.js"), Status::kOk);
  ASSERT_EQ(l.AddResource(cut), Status::kOk);
  ASSERT_EQ(l.AddResource(core), Status::kOk);
  ASSERT_EQ(l.AddFrame("hot", 0, 3, 3), Status::kOk);            // 0
  ASSERT_EQ(l.AddFrame("js-to-wasm", TraceLoader::kNone, 0, 0),  // 1
            Status::kOk);
  ASSERT_EQ(l.AddFrame("356", 1, 1, 9), Status::kOk);                 // 2
  ASSERT_EQ(l.AddFrame("wasm-function[169]", 2, 1, 7), Status::kOk);  // 3
  ASSERT_EQ(l.AddFrame("wasm-to-js", TraceLoader::kNone, 0, 0),       // 4
            Status::kOk);
  // hot > js-to-wasm > 356 > wasm-function[169] > wasm-to-js
  const uint32_t stacks[] = {0, TraceLoader::kNone, 1, 0, 2, 1, 3, 2, 4, 3};
  ASSERT_EQ(l.AddStacks(stacks, 5), Status::kOk);
  SampleBuffer::Span span = l.ReserveSamples(3);
  const double rows[6] = {1, 4, 2, 2, 3, 0};
  std::memcpy(span.data, rows, sizeof rows);
  ASSERT_EQ(l.CommitSamples(), Status::kOk);
  ASSERT_EQ(t.resources().size(), 1u);  // the page's script only
  for (size_t i = 0; i < 3; ++i) {
    StackId leaf = t.samples()[i].stack;
    EXPECT_EQ(t.frame_name(t.stacks().Get(leaf).frame), "hot");
    EXPECT_TRUE(t.stacks().Get(leaf).parent.is_none());
  }
}

TEST(StackSampler, MutedScriptsAndTheBuiltinsTheyCallAreHidden) {
  StackSampler s;
  s.KeepBuiltinFrames(true);
  s.MuteScript("https://cdn.test/lib.js");
  EXPECT_TRUE(s.IsMuted("https://cdn.test/lib.js"));
  EXPECT_FALSE(s.IsMuted("https://cdn.test/lib.js?v=2"));
  std::string text =
      V8({"cb (https://a.test/app.js:7:7)",  // page callback: visible
          "Array.map (<anonymous>)",         // called by lib: hidden
          "libFn (https://cdn.test/lib.js:1:1)",
          "JSON.parse (<anonymous>)",  // called by app: visible
          "app (https://a.test/app.js:1:1)"});
  ASSERT_EQ(s.Capture(text), Status::kOk);
  EXPECT_EQ(Names(s), (V{"app", "parse", "cb"}));
}

TEST(StackSampler, KeptBuiltinWithoutCallerStaysVisible) {
  StackSampler s;
  s.KeepBuiltinFrames(true);
  std::string text = V8({"Array.map (<anonymous>)"});
  ASSERT_EQ(s.Capture(text), Status::kOk);
  EXPECT_EQ(Names(s), (V{"map"}));
}

std::string Fixture(const std::string& engine, const std::string& name) {
  std::ifstream in(std::string(WEBPROF_FIXTURES_DIR) + "/stacks/" + engine +
                       "/" + name + ".txt",
                   std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Chromium's native Profiler reports no frame without a resource; the
// polyfill's frames match it by default, from the engines' real stacks.
TEST(StackSampler, BuiltinsBetweenCallerAndCallbackAreDroppedLikeNative) {
  struct Case {
    const char* name;
    V frames;
  } cases[] = {
      {"builtin_callback", {"", "builtin_callback", "forEachCb"}},
      {"generator", {"", "generator", "gen"}},
  };
  for (const Case& c : cases) {
    // Visible frames are views into the text: it must outlive them.
    const std::string v8 = Fixture("v8-chromium", c.name);
    const std::string sm = Fixture("spidermonkey-firefox", c.name);
    StackSampler s;
    ASSERT_EQ(s.Capture(v8), Status::kOk);
    EXPECT_EQ(Names(s), c.frames) << c.name;
    // SpiderMonkey's text has no builtin frame: the same frames.
    ASSERT_EQ(s.Capture(sm), Status::kOk);
    EXPECT_EQ(Names(s), c.frames) << c.name;
    // On request, V8's builtin stays between caller and callback.
    s.KeepBuiltinFrames(true);
    ASSERT_EQ(s.Capture(v8), Status::kOk);
    EXPECT_EQ(Names(s).size(), c.frames.size() + 1) << c.name;
  }
  // At the top of a stack too (native charges sort's time to its caller).
  StackSampler s;
  const std::string sort =
      V8({"Array.sort (<anonymous>)", "bigSort (https://a.test/x.js:9:17)"});
  ASSERT_EQ(s.Capture(sort), Status::kOk);
  EXPECT_EQ(Names(s), (V{"bigSort"}));
  const std::string parse = V8({"JSON.parse (<anonymous>)"});
  ASSERT_EQ(s.Capture(parse), Status::kOk);
  EXPECT_TRUE(s.visible_frames().empty());
}

// Native drops eval'd and new Function code too (no resource); the
// functions around it stay.
TEST(StackSampler, EvalCodeIsDroppedLikeNativeUnlessKept) {
  for (const char* engine : {"v8-chromium", "spidermonkey-firefox"}) {
    for (const char* name : {"eval_code", "new_function"}) {
      const std::string text = Fixture(engine, name);
      StackSampler s;
      ASSERT_EQ(s.Capture(text), Status::kOk) << engine << " " << name;
      for (const RawFrame& f : s.visible_frames())
        EXPECT_FALSE(f.resource.empty()) << engine << " " << name;
      size_t dropped = s.visible_frames().size();
      s.KeepBuiltinFrames(true);
      ASSERT_EQ(s.Capture(text), Status::kOk);
      EXPECT_GT(s.visible_frames().size(), dropped) << engine << " " << name;
    }
  }
}

TEST(StackSampler, EvalCodeOfAMutedScriptIsHidden) {
  StackSampler s;
  s.KeepBuiltinFrames(true);
  s.MuteScript("https://cdn.test/lib.js");
  std::string text =
      V8({"eval (eval at f (https://cdn.test/lib.js:1:2), <anonymous>:1:1)",
          "f (https://cdn.test/lib.js:1:2)"});
  ASSERT_EQ(s.Capture(text), Status::kOk);
  EXPECT_TRUE(s.visible_frames().empty());
}

TEST(StackSampler, AsyncFramesAreNotOnTheStack) {
  StackSampler s;
  std::string text = V8({"inner (https://a.test/x.js:1:1)",
                         "async outer (https://a.test/x.js:2:1)"});
  ASSERT_EQ(s.Capture(text), Status::kOk);
  EXPECT_EQ(Names(s), (V{"inner"}));
}

TEST(StackSampler, MutedOnlyStackStillGivesASampleWithoutStack) {
  StackSampler s;
  s.MuteScript("https://cdn.test/lib.js");
  Session a(SessionOptions{1, 10, 0});
  Session* ss[] = {&a};
  Status r[1];
  ASSERT_EQ(s.Sample(V8({"libFn (https://cdn.test/lib.js:1:1)"}),
                     StackFormat::kAuto, 1.0, ss, 1, r),
            Status::kOk);
  EXPECT_EQ(r[0], Status::kOk);
  EXPECT_EQ(a.trace().samples().size(), 1u);
  EXPECT_TRUE(a.trace().samples()[0].stack.is_none());
  EXPECT_EQ(a.trace().resources().size(), 0u);
  EXPECT_EQ(a.trace().frames().size(), 0u);
  EXPECT_EQ(a.trace().stacks().size(), 0u);
}

TEST(StackSampler, SeveralSessionsOneParseEachItsOwnBuffer) {
  StackSampler s;
  Session a(SessionOptions{1, 2, 0});
  Session b(SessionOptions{1, 100, 0});
  Session* ss[] = {&a, &b};
  Status r[2];
  std::string text =
      V8({"f (https://a.test/x.js:1:1)", "g (https://a.test/x.js:2:1)"});
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(s.Sample(text, StackFormat::kAuto, i, ss, 2, r), Status::kOk);
    EXPECT_EQ(r[0], Status::kOk);
    EXPECT_EQ(r[1], Status::kOk);
  }
  ASSERT_EQ(s.Sample(text, StackFormat::kAuto, 2, ss, 2, r), Status::kOk);
  EXPECT_EQ(r[0], Status::kBufferFull);  // once, then stopped
  EXPECT_EQ(r[1], Status::kOk);
  std::string other = V8({"h (https://a.test/y.js:1:1)"});
  ASSERT_EQ(s.Sample(other, StackFormat::kAuto, 3, ss, 2, r), Status::kOk);
  EXPECT_EQ(r[0], Status::kStopped);
  EXPECT_EQ(a.trace().samples().size(), 2u);
  EXPECT_EQ(b.trace().samples().size(), 4u);
  // The stopped session's tables did not grow with the refused sample.
  EXPECT_EQ(a.trace().frames().size(), 2u);
  EXPECT_EQ(a.trace().resources().size(), 1u);
  EXPECT_EQ(b.trace().frames().size(), 3u);
  EXPECT_EQ(b.trace().resources().size(), 2u);
  // Same stack, same id; a prefix tree of (g) <- (f).
  EXPECT_EQ(b.trace().samples()[0].stack, b.trace().samples()[1].stack);
  StackId top = b.trace().samples()[0].stack;
  EXPECT_EQ(b.trace().frame_name(b.trace().stacks().Get(top).frame), "f");
  StackId parent = b.trace().stacks().Get(top).parent;
  EXPECT_EQ(b.trace().frame_name(b.trace().stacks().Get(parent).frame), "g");
}

TEST(StackSampler, PausedSessionKeepsNothing) {
  StackSampler s;
  Session a(SessionOptions{1, 10, 0});
  a.Pause();
  Session* ss[] = {&a};
  Status r[1];
  ASSERT_EQ(s.Sample(V8({"f (https://a.test/x.js:1:1)"}), StackFormat::kAuto, 1,
                     ss, 1, r),
            Status::kOk);
  EXPECT_EQ(r[0], Status::kPaused);
  EXPECT_EQ(a.trace().frames().size(), 0u);
  EXPECT_EQ(a.trace().samples().size(), 0u);
}

TEST(StackSampler, RejectedTimestampInternsNothing) {
  StackSampler s;
  Session a(SessionOptions{1, 10, 0});
  Session* ss[] = {&a};
  Status r[1];
  ASSERT_EQ(s.Sample(V8({"f (https://a.test/x.js:1:1)"}), StackFormat::kAuto, 5,
                     ss, 1, r),
            Status::kOk);
  ASSERT_EQ(s.Sample(V8({"g (https://a.test/y.js:1:1)"}), StackFormat::kAuto, 4,
                     ss, 1, r),
            Status::kOk);
  EXPECT_EQ(r[0], Status::kTimestampOutOfOrder);
  EXPECT_EQ(a.trace().frames().size(), 1u);
  EXPECT_EQ(a.trace().resources().size(), 1u);
}

TEST(StackSampler, UnparsableStackStillSamples) {
  StackSampler s;
  Session a(SessionOptions{1, 10, 0});
  Session* ss[] = {&a};
  Status r[1];
  EXPECT_EQ(
      s.Sample("Error\n    at f (u:1:1)\n???", StackFormat::kV8, 1, ss, 1, r),
      Status::kMalformedStack);
  EXPECT_EQ(r[0], Status::kOk);
  ASSERT_EQ(a.trace().samples().size(), 1u);
  EXPECT_TRUE(a.trace().samples()[0].stack.is_none());
}

TEST(StackSampler, UnclassifiedScriptsAreReportedAndNothingIsSampled) {
  StackSampler s;
  s.RequireClassifiedScripts(true);
  s.ClassifyScript("https://a.test/app.js", false);
  Session a(SessionOptions{1, 10, 0});
  Session* ss[] = {&a};
  Status r[1] = {Status::kOk};
  std::string text = V8({"lib (https://cdn.test/lib.js:1:1)",
                         "lib2 (https://cdn.test/lib.js:2:1)",
                         "app (https://a.test/app.js:1:1)"});
  EXPECT_EQ(s.Sample(text, StackFormat::kAuto, 1, ss, 1, r),
            Status::kUnclassifiedScript);
  ASSERT_EQ(s.unclassified_scripts().size(), 1u);  // each URL once
  EXPECT_EQ(s.unclassified_scripts()[0], "https://cdn.test/lib.js");
  EXPECT_EQ(a.trace().samples().size(), 0u);
  s.ClassifyScript("https://cdn.test/lib.js", true);
  s.ClassifyScript("https://cdn.test/lib.js",
                   false);  // the first answer stands
  EXPECT_EQ(s.Sample(text, StackFormat::kAuto, 1, ss, 1, r), Status::kOk);
  EXPECT_EQ(r[0], Status::kOk);
  EXPECT_EQ(a.trace().frames().size(), 1u);
  EXPECT_EQ(a.trace().frame_name(FrameId(0)), "app");
}

}  // namespace
}  // namespace webprof
