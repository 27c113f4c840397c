// ResolveFrames: execution points collapse onto function definitions,
// stacks that coincide merge, samples and unscanned resources survive. The
// definitions go the way they go in a page: the trace's frame positions and
// the definitions looked up for them each cross as records.
#include "source/frame_resolver.h"

#include <gtest/gtest.h>

#include "source/source_index.h"
#include "support/definitions_via_records.h"

namespace webprof {
namespace {

class FrameResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(scan_.ScanScript("function work(n) {\n"  // 1
                               "  step(n);\n"          // 2
                               "  step(n + 1);\n"      // 3
                               "}\n"                   // 4
                               "function step(k) {\n"  // 5
                               "  return k * 2;\n"     // 6
                               "}\n"                   // 7
                               "work(1);\n",           // 8
                               ScanLimits()),
              Status::kOk);
    app_ = trace_.InternResource("https://x.test/app.js");
    other_ = trace_.InternResource("https://cdn.test/lib.js");
  }
  FrameId AddFrame(const char* name, ResourceId r, uint32_t line,
                   uint32_t col) {
    return trace_.InternFrame(
        RawFrame{name, trace_.resource_url(r), line, col});
  }
  StackId Stack(std::vector<FrameId> outermost_first) {
    return trace_.InternStack(outermost_first.data(), outermost_first.size());
  }
  void AddSample(double t, StackId s) {
    trace_.mutable_samples().Append({t, s});
  }
  // ResolveFrames with `scans` (by resource id), the definitions crossing
  // as records both ways as in a page.
  Status Resolve(const std::vector<const SourceScan*>& scans,
                 ResolveStats* st) {
    FrameDefinitions definitions;
    DefinitionsViaRecords(scans, trace_, &definitions);
    return ResolveFrames(definitions, &trace_, st);
  }

  SourceScan scan_;
  ProfilerTrace trace_;
  ResourceId app_, other_;
};

TEST_F(FrameResolverTest, CallSitesOfOneFunctionBecomeOneFrame) {
  FrameId top = AddFrame("", app_, 8, 1);
  FrameId w2 = AddFrame("work", app_, 2, 3);
  FrameId w3 = AddFrame("work", app_, 3, 3);
  FrameId s6 = AddFrame("step", app_, 6, 10);
  FrameId lib = AddFrame("libFn", other_, 40, 7);
  AddSample(1, Stack({top, w2, s6}));
  AddSample(2, Stack({top, w3, s6}));
  AddSample(3, StackId::None());
  AddSample(4, Stack({top, w3, lib}));
  ResolveStats st;
  ASSERT_EQ(Resolve({&scan_, nullptr}, &st), Status::kOk);
  EXPECT_EQ(st.frames_in, 5u);
  EXPECT_EQ(st.frames_out, 4u);  // top, work, step, libFn
  EXPECT_EQ(st.frames_resolved, 4u);
  ASSERT_EQ(trace_.samples().size(), 4u);
  EXPECT_EQ(trace_.samples()[0].stack, trace_.samples()[1].stack);
  EXPECT_TRUE(trace_.samples()[2].stack.is_none());
  EXPECT_EQ(trace_.samples()[3].timestamp, 4);
  const webprof::Frame& work = trace_.frames().Get(FrameId(1));
  EXPECT_EQ(trace_.names().Get(work.name), "work");
  EXPECT_EQ(work.line, 1u);
  EXPECT_EQ(work.column, 14u);
  const webprof::Frame& libf = trace_.frames().Get(FrameId(3));
  EXPECT_EQ(trace_.names().Get(libf.name), "libFn");
  EXPECT_EQ(libf.line, 40u);  // not scanned: kept
  EXPECT_EQ(libf.resource, other_);
  const webprof::Frame& topf = trace_.frames().Get(FrameId(0));
  EXPECT_EQ(trace_.names().Get(topf.name), "");  // top-level: script start
  EXPECT_EQ(topf.line, 1u);
  EXPECT_EQ(topf.column, 1u);
  // Integrity: every stack row names a frame and an earlier parent.
  const auto& rows = trace_.stacks().rows();
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_TRUE(trace_.frames().Contains(rows[i].frame));
    if (!rows[i].parent.is_none()) EXPECT_LT(rows[i].parent.value, i);
  }
  EXPECT_EQ(st.stacks_out, 4u);  // top, top>work, top>work>step, ..>libFn
}

// A transformed script (js/transform/): a stack captured at a function's
// entry check stands for its caller; one captured at a loop check does not.
TEST_F(FrameResolverTest, ASampleAtAnEntryCheckIsItsCallers) {
  SourceScan scan;
  ASSERT_EQ(
      scan.ScanScript(
          "function tok(s) {if(--__wp$f[0]<0)__wp$s();\n"               // 1
          "  const m = re.exec(s); return esc(m);\n"                    // 2
          "}\n"                                                         // 3
          "function esc(t) {if(--__wp$f[0]<0)__wp$s();\n"               // 4
          "  for (const c of t) {if(--__wp$f[0]<0)__wp$s(); f(c); }\n"  // 5
          "}\n",                                                        // 6
          ScanLimits()),
      Status::kOk);
  EXPECT_TRUE(scan.IsEntryCheck(4, 35));
  EXPECT_TRUE(scan.IsEntryCheck(4, 41));   // JavaScriptCore: at the call's `(`
  EXPECT_FALSE(scan.IsEntryCheck(5, 40));  // a loop's check
  EXPECT_FALSE(scan.IsEntryCheck(5, 46));
  EXPECT_FALSE(scan.IsEntryCheck(2, 35));
  FrameId tok = AddFrame("tok", app_, 2, 32);
  FrameId esc_entry = AddFrame("esc", app_, 4, 35);
  FrameId esc_loop = AddFrame("esc", app_, 5, 40);
  FrameId only_entry = AddFrame("tok", app_, 1, 35);
  AddSample(1, Stack({tok, esc_entry}));
  AddSample(2, Stack({tok, esc_loop}));
  AddSample(3, Stack({only_entry}));
  ASSERT_EQ(Resolve({&scan}, nullptr), Status::kOk);
  auto leaf = [&](size_t i) {
    StackId s = trace_.samples()[i].stack;
    return std::string(trace_.names().Get(
        trace_.frames().Get(trace_.stacks().Get(s).frame).name));
  };
  EXPECT_EQ(leaf(0), "tok");  // esc had not started: tok's time
  EXPECT_EQ(leaf(1), "esc");
  EXPECT_TRUE(trace_.samples()[2].stack.is_none());
  EXPECT_EQ(trace_.frames().size(), 2u);  // tok, esc (from its loop)
}

// The guarded check the transform emits now (`__wp$on&&`,
// js/profiler/dense.mjs) is an entry check too; the unguarded one above is what
// older bundles hold.
TEST_F(FrameResolverTest, AGuardedEntryCheckIsOneToo) {
  SourceScan scan;
  ASSERT_EQ(scan.ScanScript(
                "function esc(t) {if(__wp$on&&--__wp$f[0]<0)__wp$s();\n"  // 1
                "  for (const c of t) {if(__wp$on&&--__wp$f[0]<0)__wp$s(); "
                "f(c); }\n"                                             // 2
                "}\n"                                                   // 3
                "function g() {if(__wp$on&&__wp$f[0]<0)__wp$s(); }\n",  // 4
                ScanLimits()),
            Status::kOk);
  EXPECT_TRUE(scan.IsEntryCheck(1, 44));
  EXPECT_TRUE(scan.IsEntryCheck(1, 50));   // JavaScriptCore: at the call's `(`
  EXPECT_FALSE(scan.IsEntryCheck(2, 49));  // a loop's check
  EXPECT_FALSE(
      scan.IsEntryCheck(4, 39));  // not the transform's check (no `--`)
}

// The check emitted now compares with the threshold slot
// (`<__wp$f[1]`, js/profiler/dense.mjs): an entry check too.
TEST_F(FrameResolverTest, AThresholdEntryCheckIsOneToo) {
  SourceScan scan;
  ASSERT_EQ(
      scan.ScanScript(
          "function esc(t) {if(__wp$on&&--__wp$f[0]<__wp$f[1])__wp$s();\n"  // 1
          "  for (const c of t) {if(__wp$on&&--__wp$f[0]<__wp$f[1])__wp$s(); "
          "f(c); }\n"                                                       // 2
          "}\n"                                                             // 3
          "function g() {if(__wp$on&&--__wp$f[0]<__wp$f[2])__wp$s(); }\n",  // 4
          ScanLimits()),
      Status::kOk);
  EXPECT_TRUE(scan.IsEntryCheck(1, 52));
  EXPECT_TRUE(scan.IsEntryCheck(1, 58));   // JavaScriptCore: at the call's `(`
  EXPECT_FALSE(scan.IsEntryCheck(2, 57));  // a loop's check
  EXPECT_FALSE(scan.IsEntryCheck(4, 49));  // not the transform's check (slot 2)
}

// The check emitted now takes its slow path by a `delete` on the runtime's
// Proxy (no call site for V8 to deoptimize on): V8 and SpiderMonkey report
// the check at `delete`, JavaScriptCore at the `;` after `__wp$p.s`.
TEST_F(FrameResolverTest, ADeleteEntryCheckIsOneToo) {
  SourceScan scan;
  ASSERT_EQ(
      scan.ScanScript(
          "function esc(t) {if(__wp$on&&--__wp$f[0]<__wp$f[1])delete "
          "__wp$p.s;\n"  // 1
          "  for (const c of t) {if(__wp$on&&--__wp$f[0]<__wp$f[1])delete "
          "__wp$p.s; f(c); }\n"  // 2
          "}\n"                  // 3
          "function g() {if(__wp$on&&--__wp$f[0]<__wp$f[1])delete __wp$p.t; "
          "}\n",  // 4
          ScanLimits()),
      Status::kOk);
  EXPECT_TRUE(scan.IsEntryCheck(1, 52));
  EXPECT_TRUE(scan.IsEntryCheck(1, 67));   // JavaScriptCore: after `__wp$p.s`
  EXPECT_FALSE(scan.IsEntryCheck(1, 59));  // not where any engine reports it
  EXPECT_FALSE(scan.IsEntryCheck(2, 57));  // a loop's check
  EXPECT_FALSE(scan.IsEntryCheck(4, 49));  // not the transform's check (`.t`)
}

// The check emitted now reads the slots from a module-level `var` and skips
// itself while it is unset (`__wp$f&&`): an entry check too.
TEST_F(FrameResolverTest, AVarEntryCheckIsOneToo) {
  SourceScan scan;
  ASSERT_EQ(scan.ScanScript(
                "function esc(t) {if(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1])"
                "delete __wp$p.s;\n"  // 1
                "  for (const c of t) {if(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f["
                "1])delete __wp$p.s; f(c); }\n"  // 2
                "}\n"                            // 3
                "function g() {if(__wp$on&&__wp$g&&--__wp$f[0]<__wp$f[1])"
                "delete __wp$p.s; }\n",  // 4
                ScanLimits()),
            Status::kOk);
  EXPECT_TRUE(scan.IsEntryCheck(1, 60));
  EXPECT_TRUE(scan.IsEntryCheck(1, 75));   // JavaScriptCore: after `__wp$p.s`
  EXPECT_FALSE(scan.IsEntryCheck(2, 65));  // a loop's check
  EXPECT_FALSE(scan.IsEntryCheck(4, 57));  // not the transform's (`__wp$g`)
  // A bundler renames each module's `var` (Rollup `__wp$f$2`, esbuild
  // `__wp$f2`); one check spells it one way throughout.
  SourceScan renamed;
  ASSERT_EQ(renamed.ScanScript(
                "function a() {if(__wp$on&&__wp$f$2&&--__wp$f$2[0]<__wp$f$2[1])"
                "delete __wp$p.s; }\n"  // 1
                "function b() {if(__wp$on&&__wp$f2&&--__wp$f2[0]<__wp$f2[1])"
                "delete __wp$p.s; }\n"  // 2
                "function c() {if(__wp$on&&__wp$f2&&--__wp$f3[0]<__wp$f2[1])"
                "delete __wp$p.s; }\n",  // 3
                ScanLimits()),
            Status::kOk);
  EXPECT_TRUE(renamed.IsEntryCheck(1, 63));
  EXPECT_TRUE(renamed.IsEntryCheck(2, 60));
  EXPECT_FALSE(renamed.IsEntryCheck(3, 60));  // two names: no check of ours
}

TEST_F(FrameResolverTest, NothingScannedKeepsTheTraceAsIs) {
  FrameId a = AddFrame("a", app_, 2, 3);
  AddSample(1, Stack({a}));
  ResolveStats st;
  ASSERT_EQ(Resolve({}, &st), Status::kOk);
  EXPECT_EQ(st.frames_resolved, 0u);
  EXPECT_EQ(trace_.frames().Get(FrameId(0)).line, 2u);
  EXPECT_EQ(trace_.resource_url(app_), "https://x.test/app.js");
  EXPECT_EQ(trace_.samples().size(), 1u);
}

// The page's index of scans: one per URL, replaced by a new scan of the
// same URL, untouched by a source that does not scan, found per resource.
TEST_F(FrameResolverTest, SourceIndexKeepsOneScanPerUrl) {
  SourceIndex index;
  ASSERT_EQ(index.Add("https://x.test/app.js", "function f() {}", false),
            Status::kOk);
  const SourceScan* first = index.Find("https://x.test/app.js");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->functions().size(), 1u);
  EXPECT_EQ(index.Add("https://x.test/app.js", "function (", false),
            Status::kSourceUnscannable);
  EXPECT_EQ(index.Find("https://x.test/app.js"), first) << "kept on error";
  index.limits().max_bytes = 4;
  EXPECT_EQ(index.Add("https://x.test/big.js", "var x = 1;", false),
            Status::kSourceTooLarge);
  std::vector<const SourceScan*> scans =
      index.ScansFor({std::string(trace_.resource_url(app_)),
                      std::string(trace_.resource_url(other_))});
  ASSERT_EQ(scans.size(), 2u);
  EXPECT_EQ(scans[app_.value], first);
  EXPECT_EQ(scans[other_.value], nullptr);
  index.Remove("https://x.test/app.js");
  EXPECT_EQ(index.Find("https://x.test/app.js"), nullptr);
}

TEST_F(FrameResolverTest, FindDefinitionNamesFunctionsAndTopLevel) {
  Definition d;
  ASSERT_TRUE(FindDefinition(scan_, 6, 5, &d));
  EXPECT_EQ(d.name, "step");
  EXPECT_EQ(d.line, 5u);
  EXPECT_EQ(d.column, 14u);
  EXPECT_FALSE(d.top_level);
  ASSERT_TRUE(FindDefinition(scan_, 8, 1, &d));
  EXPECT_TRUE(d.top_level);
  EXPECT_EQ(d.name, "");
  EXPECT_EQ(d.line, 1u);
  EXPECT_FALSE(FindDefinition(scan_, 99, 1, &d)) << "past the script";
}

}  // namespace
}  // namespace webprof
