// TrimTrace (field collection): idle samples out, an evenly spaced subset
// under the cap, and only the rows kept samples reach — checked against the
// input by each kept sample's full frame path, with the loader's integrity
// rules (parents first, ids in range) on the output.
#include "export/trace_trim.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace webprof {
namespace {

// Each kept sample's stack as "name@url:line:col;..." outermost first.
std::string Path(const ProfilerTrace& t, StackId s) {
  std::vector<std::string> parts;
  for (StackId at = s; !at.is_none(); at = t.stacks().Get(at).parent) {
    const Frame& f = t.frames().Get(t.stacks().Get(at).frame);
    std::string url(f.resource.is_none() ? "" : t.resource_url(f.resource));
    parts.insert(parts.begin(), std::string(t.names().Get(f.name)) + "@" + url +
                                    ":" + std::to_string(f.line) + ":" +
                                    std::to_string(f.column));
  }
  std::string out;
  for (const std::string& p : parts) out += p + ";";
  return out;
}

void ExpectIntegrity(const ProfilerTrace& t) {
  for (uint32_t i = 0; i < t.stacks().size(); ++i) {
    const Stack& s = t.stacks().Get(StackId(i));
    EXPECT_TRUE(t.frames().Contains(s.frame));
    if (!s.parent.is_none()) EXPECT_LT(s.parent.value, i);
  }
  for (uint32_t i = 0; i < t.frames().size(); ++i) {
    const Frame& f = t.frames().Get(FrameId(i));
    EXPECT_TRUE(t.names().Contains(f.name));
    if (!f.resource.is_none())
      EXPECT_LT(f.resource.value, t.resources().size());
  }
  for (size_t i = 1; i < t.samples().size(); ++i)
    EXPECT_LE(t.samples()[i - 1].timestamp, t.samples()[i].timestamp);
}

class TraceTrimTest : public ::testing::Test {
 protected:
  FrameId F(const char* name, const char* url = "https://a/app.js",
            uint32_t line = 1) {
    return in_.InternFrame(RawFrame{name, url, line, 2});
  }
  StackId S(std::vector<FrameId> outermost_first) {
    return in_.InternStack(outermost_first.data(), outermost_first.size());
  }
  void Sample(StackId s, int n = 1) {
    for (int i = 0; i < n; ++i)
      in_.mutable_samples().Append({double(time_++), s});
  }

  ProfilerTrace in_;
  int time_ = 0;
};

TEST_F(TraceTrimTest, DropsIdleSamplesAndEveryRowOnlyTheyOrNoSampleReach) {
  FrameId main = F("main"), hot = F("hot", "https://a/app.js", 7);
  FrameId unused = F("neverSampled", "https://cdn/lib.js");
  StackId a = S({main, hot});
  S({main, unused});  // interned but never sampled
  Sample(StackId::None(), 3);
  Sample(a, 2);
  Sample(StackId::None(), 1);

  ProfilerTrace out;
  TrimResult r;
  ASSERT_EQ(TrimTrace(in_, TrimOptions{}, &out, &r), Status::kOk);
  EXPECT_EQ(r.idle_dropped, 4u);
  EXPECT_EQ(r.thinned_dropped, 0u);
  ExpectIntegrity(out);
  ASSERT_EQ(out.samples().size(), 2u);
  EXPECT_EQ(out.samples()[0].timestamp, 3);
  EXPECT_EQ(out.samples()[1].timestamp, 4);
  EXPECT_EQ(Path(out, out.samples()[0].stack), Path(in_, a));
  EXPECT_EQ(out.stacks().size(), 2u);
  EXPECT_EQ(out.frames().size(), 2u);
  EXPECT_EQ(out.names().size(), 2u);      // no "neverSampled"
  EXPECT_EQ(out.resources().size(), 1u);  // no lib.js
  EXPECT_EQ(out.resource_url(ResourceId(0)), "https://a/app.js");
}

TEST_F(TraceTrimTest, KeepsIdleSamplesWhenAsked) {
  StackId a = S({F("main")});
  Sample(StackId::None(), 2);
  Sample(a, 1);
  ProfilerTrace out;
  TrimResult r;
  TrimOptions o;
  o.drop_idle = false;
  ASSERT_EQ(TrimTrace(in_, o, &out, &r), Status::kOk);
  EXPECT_EQ(r.idle_dropped, 0u);
  ASSERT_EQ(out.samples().size(), 3u);
  EXPECT_TRUE(out.samples()[0].stack.is_none());
  EXPECT_EQ(out.samples()[2].stack, StackId(0));
}

TEST_F(TraceTrimTest, ThinsEvenlyToExactlyTheCapAcrossTheWholeWindow) {
  FrameId main = F("main");
  StackId early = S({main, F("early")}), late = S({main, F("late")});
  Sample(early, 500);
  Sample(StackId::None(), 100);  // idle gap: dropped before thinning
  Sample(late, 500);

  ProfilerTrace out;
  TrimResult r;
  TrimOptions o;
  o.max_samples = 100;
  ASSERT_EQ(TrimTrace(in_, o, &out, &r), Status::kOk);
  ExpectIntegrity(out);
  EXPECT_EQ(r.idle_dropped, 100u);
  EXPECT_EQ(r.thinned_dropped, 900u);
  ASSERT_EQ(out.samples().size(), 100u);
  // Both halves in proportion, and the kept times spread over the window.
  int early_n = 0;
  for (size_t i = 0; i < out.samples().size(); ++i)
    if (Path(out, out.samples()[i].stack) == Path(in_, early)) ++early_n;
  EXPECT_EQ(early_n, 50);
  EXPECT_LT(out.samples()[0].timestamp, 20);
  EXPECT_GT(out.samples().back().timestamp, 1080);
  // Ten input samples per kept one: the median interval grows tenfold.
  EXPECT_EQ(out.samples()[1].timestamp - out.samples()[0].timestamp, 10);
  (void)late;
}

TEST_F(TraceTrimTest, KeepsPathsNamesAndPositionsOfEveryKeptSample) {
  FrameId main = F("main", "https://a/app.js", 1);
  FrameId parse = F("parse", "https://a/parse.js", 30);
  FrameId builtin = in_.InternFrame(RawFrame{"sort", "", 0, 0});
  FrameId anon = F("", "https://a/app.js", 99);
  std::vector<StackId> stacks = {S({main, parse}), S({main, builtin, anon}),
                                 S({anon}), S({main, parse, parse})};
  for (int round = 0; round < 5; ++round)
    for (StackId s : stacks) Sample(s, 1 + round % 2);

  ProfilerTrace out;
  TrimResult r;
  TrimOptions o;
  o.max_samples = 7;
  ASSERT_EQ(TrimTrace(in_, o, &out, &r), Status::kOk);
  ExpectIntegrity(out);
  ASSERT_EQ(out.samples().size(), 7u);
  // Each kept sample is an input sample at the same time with the same path.
  size_t j = 0;
  for (size_t i = 0; i < out.samples().size(); ++i) {
    while (in_.samples()[j].timestamp != out.samples()[i].timestamp) ++j;
    EXPECT_EQ(Path(out, out.samples()[i].stack),
              Path(in_, in_.samples()[j].stack));
  }
}

TEST_F(TraceTrimTest, TrimmingATrimmedTraceChangesNothing) {
  FrameId main = F("main");
  for (int i = 0; i < 40; ++i) {
    FrameId f = F(("f" + std::to_string(i % 7)).c_str(), "https://a/app.js",
                  uint32_t(i % 7 + 1));
    Sample(S({main, f}), 1);
    if (i % 3 == 0) Sample(StackId::None(), 1);
  }
  TrimOptions o;
  o.max_samples = 16;
  ProfilerTrace once, twice;
  TrimResult r1, r2;
  ASSERT_EQ(TrimTrace(in_, o, &once, &r1), Status::kOk);
  ASSERT_EQ(TrimTrace(once, o, &twice, &r2), Status::kOk);
  EXPECT_EQ(r2.idle_dropped + r2.thinned_dropped, 0u);
  ASSERT_EQ(twice.samples().size(), once.samples().size());
  EXPECT_EQ(twice.stacks().size(), once.stacks().size());
  EXPECT_EQ(twice.frames().size(), once.frames().size());
  for (size_t i = 0; i < once.samples().size(); ++i) {
    EXPECT_EQ(twice.samples()[i].timestamp, once.samples()[i].timestamp);
    EXPECT_EQ(twice.samples()[i].stack, once.samples()[i].stack);
  }
}

TEST_F(TraceTrimTest, RefusesAnOutputThatIsNotEmpty) {
  Sample(S({F("main")}), 2);
  ProfilerTrace out;
  out.InternResource("https://x/");
  TrimResult r;
  EXPECT_EQ(TrimTrace(in_, TrimOptions{}, &out, &r), Status::kInvalidArgument);
  EXPECT_EQ(out.samples().size(), 0u);
  EXPECT_EQ(TrimTrace(in_, TrimOptions{}, nullptr, &r),
            Status::kInvalidArgument);
}

TEST_F(TraceTrimTest, AnEmptyOrAllIdleTraceGivesAnEmptyTrace) {
  ProfilerTrace out;
  TrimResult r;
  ASSERT_EQ(TrimTrace(in_, TrimOptions{}, &out, &r), Status::kOk);
  EXPECT_EQ(out.samples().size(), 0u);
  Sample(StackId::None(), 5);
  F("unused");
  ProfilerTrace out2;
  ASSERT_EQ(TrimTrace(in_, TrimOptions{}, &out2, &r), Status::kOk);
  EXPECT_EQ(r.idle_dropped, 5u);
  EXPECT_EQ(out2.samples().size(), 0u);
  EXPECT_EQ(out2.frames().size(), 0u);
  EXPECT_EQ(out2.names().size(), 0u);
}

}  // namespace
}  // namespace webprof
