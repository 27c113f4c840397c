// The W3C-trace loader: rows re-interned (duplicates merge), every bad row
// refused with its own status and nothing of that call kept, and samples
// accepted by exactly the session's rule.
#include "trace/trace_loader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "trace/session.h"

namespace webprof {
namespace {

constexpr uint32_t kNone = TraceLoader::kNone;

// Writes rows as JS does (two doubles each) into reserved spans and commits.
Status LoadSamples(TraceLoader& l,
                   const std::vector<std::pair<double, double>>& rows) {
  size_t i = 0;
  while (i < rows.size()) {
    SampleBuffer::Span span = l.ReserveSamples(rows.size() - i);
    for (size_t k = 0; k < span.size; ++k, ++i) {
      char* row = reinterpret_cast<char*>(&span.data[k]);
      std::memcpy(row, &rows[i].first, 8);
      std::memcpy(row + 8, &rows[i].second, 8);
    }
    Status s = l.CommitSamples();
    if (s != Status::kOk) return s;
  }
  return Status::kOk;
}

// Own frames: scripts under https://a.test/own/, names containing "own$".
class Sampled final : public OwnFrameRule {
 public:
  bool IsOwnScript(std::string_view url) const override {
    return url.substr(0, 18) == "https://a.test/own";
  }
  bool IsOwnName(std::string_view name) const override {
    return name.find("own$") != std::string_view::npos;
  }
};

// resources [a.js], frames [main, f(a.js:3:4)], stacks [main], [main, f].
void LoadSmall(TraceLoader& l) {
  ASSERT_EQ(l.AddResource("https://x.test/a.js"), Status::kOk);
  ASSERT_EQ(l.AddFrame("main", kNone, 0, 0), Status::kOk);
  ASSERT_EQ(l.AddFrame("f", 0, 3, 4), Status::kOk);
  const uint32_t stacks[] = {0, kNone, 1, 0};
  ASSERT_EQ(l.AddStacks(stacks, 2), Status::kOk);
}

TEST(TraceLoader, LoadsRowsInW3cNumberingAndMergesDuplicates) {
  ProfilerTrace t;
  TraceLoader l(&t);
  LoadSmall(l);
  // A duplicate of stack 1 (index 2) and of frame 1 (index 2).
  ASSERT_EQ(l.AddFrame("f", 0, 3, 4), Status::kOk);
  const uint32_t dup[] = {2, 0};
  ASSERT_EQ(l.AddStacks(dup, 1), Status::kOk);
  EXPECT_EQ(t.frames().size(), 2u);
  EXPECT_EQ(t.stacks().size(), 2u);
  ASSERT_EQ(LoadSamples(l, {{1, 0}, {2, 2}, {3, -1}, {3, 1}}), Status::kOk);
  ASSERT_EQ(t.samples().size(), 4u);
  EXPECT_EQ(t.samples()[0].stack.value, 0u);
  EXPECT_EQ(t.samples()[1].stack.value, 1u);  // W3C 2 -> the core's 1
  EXPECT_TRUE(t.samples()[2].stack.is_none());
  EXPECT_TRUE(l.has_samples());
}

TEST(TraceLoader, BadTableRowsAreRefusedWithTheirStatus) {
  ProfilerTrace t;
  TraceLoader l(&t);
  LoadSmall(l);
  EXPECT_EQ(l.AddFrame("g", 5, 0, 0), Status::kUnknownResource);
  const uint32_t unknown_frame[] = {9, kNone};
  EXPECT_EQ(l.AddStacks(unknown_frame, 1), Status::kUnknownFrame);
  // A self-parented row after a good one: the call keeps none.
  const uint32_t self_parent[] = {0, kNone, 1, 3, 0, kNone};
  EXPECT_EQ(l.AddStacks(self_parent, 3), Status::kParentNotBefore);
  const uint32_t no_such_parent[] = {1, 9};
  EXPECT_EQ(l.AddStacks(no_such_parent, 1), Status::kUnknownParent);
  ASSERT_EQ(LoadSamples(l, {{1, 1}}), Status::kOk);
  EXPECT_EQ(LoadSamples(l, {{2, 2}}), Status::kUnknownStack);  // W3C 2 is gone
  EXPECT_EQ(t.samples().size(), 1u);
}

// Issue 18 item 4: a self-parented stack used to hang the JS importer. A
// parent must be an earlier row, so no cycle can be loaded, in either way
// of loading.
TEST(TraceLoader, CyclesAndForwardParentsAreRefused) {
  struct Case {
    std::vector<uint32_t> rows;
    Status want;
  } cases[] = {
      {{0, 0}, Status::kParentNotBefore},                  // itself
      {{0, kNone, 1, 2, 0, 1}, Status::kParentNotBefore},  // 1 -> 2 -> 1
      {{0, 1, 1, kNone}, Status::kParentNotBefore},        // forward, no cycle
      {{0, kNone, 1, 7}, Status::kUnknownParent},          // out of range
  };
  const Sampled rule;
  for (const Case& c : cases) {
    for (const OwnFrameRule* as_sampled :
         {(const OwnFrameRule*)nullptr, (const OwnFrameRule*)&rule}) {
      ProfilerTrace t;
      TraceLoader l(&t, LoadOptions{as_sampled});
      ASSERT_EQ(l.AddFrame("main", kNone, 0, 0), Status::kOk);
      ASSERT_EQ(l.AddFrame("f", kNone, 0, 0), Status::kOk);
      EXPECT_EQ(l.AddStacks(c.rows.data(), c.rows.size() / 2), c.want);
      EXPECT_EQ(LoadSamples(l, {{1, 0}}), Status::kUnknownStack);
      EXPECT_EQ(t.samples().size(), 0u);
    }
  }
}

// As sampled: own frames (the rule's) and hidden resources' frames map to
// their caller, stacks are interned at first use, unsampled ones never.
TEST(TraceLoader, AsSampledDropsOwnAndHiddenFramesAndNumbersByFirstUse) {
  ProfilerTrace t;
  const Sampled rule;
  TraceLoader l(&t, LoadOptions{&rule});
  ASSERT_EQ(l.AddResource("https://a.test/app.js"), Status::kOk);
  ASSERT_EQ(l.AddResource("https://a.test/own/webprof.mjs"), Status::kOk);
  ASSERT_EQ(l.AddResource("https://b.test/muted.js", true), Status::kOk);
  ASSERT_EQ(l.AddFrame("main", 0, 1, 1), Status::kOk);      // 0
  ASSERT_EQ(l.AddFrame("own$wrap", 0, 2, 2), Status::kOk);  // 1
  ASSERT_EQ(l.AddFrame("a", 0, 3, 3), Status::kOk);         // 2
  ASSERT_EQ(l.AddFrame("b", 0, 4, 4), Status::kOk);         // 3
  ASSERT_EQ(l.AddFrame("probe", 1, 5, 5), Status::kOk);     // 4
  ASSERT_EQ(l.AddFrame("cb", 2, 6, 6), Status::kOk);        // 5
  const uint32_t stacks[] = {
      0, kNone,  // 0 main
      1, 0,      // 1 main > own$wrap
      2, 1,      // 2 main > (own$wrap) > a
      3, 0,      // 3 main > b
      4, 3,      // 4 main > b > (probe)
      5, 2,      // 5 main > a > (cb)
      2, 3,      // 6 main > b > a: never sampled
      1, kNone,  // 7 (own$wrap) alone
  };
  ASSERT_EQ(l.AddStacks(stacks, 8), Status::kOk);
  EXPECT_EQ(t.stacks().size(), 0u);  // nothing before a sample uses it
  ASSERT_EQ(LoadSamples(l, {{1, 4}, {2, 5}, {3, 7}, {4, 0}}), Status::kOk);
  // Only app.js is a resource; only main, a and b are frames.
  ASSERT_EQ(t.resources().size(), 1u);
  ASSERT_EQ(t.frames().size(), 3u);
  EXPECT_EQ(t.frame_name(FrameId(2)), "b");
  // First use: main (0), main > b (1) for sample 4, then main > a (2).
  ASSERT_EQ(t.stacks().size(), 3u);
  EXPECT_EQ(t.stacks().Get(StackId(1)).frame.value, 2u);  // b
  EXPECT_EQ(t.stacks().Get(StackId(2)).frame.value, 1u);  // a
  EXPECT_EQ(t.samples()[0].stack.value, 1u);
  EXPECT_EQ(t.samples()[1].stack.value, 2u);
  EXPECT_TRUE(t.samples()[2].stack.is_none());  // only webprof's frame
  EXPECT_EQ(t.samples()[3].stack.value, 0u);
}

TEST(TraceLoader, AsGivenKeepsEveryRowInW3cOrder) {
  ProfilerTrace t;
  TraceLoader l(&t);
  ASSERT_EQ(l.AddResource("https://a.test/own/webprof.mjs", true),
            Status::kOk);  // `hidden` means nothing as given
  ASSERT_EQ(l.AddFrame("own$wrap", 0, 0, 0), Status::kOk);
  const uint32_t stacks[] = {0, kNone};
  ASSERT_EQ(l.AddStacks(stacks, 1), Status::kOk);
  EXPECT_EQ(t.resources().size(), 1u);
  EXPECT_EQ(t.stacks().size(), 1u);
}

TEST(TraceLoader, EveryBadSampleDropsItsSpanWithTheSessionsStatus) {
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::pair<double, double> row;
    Status want;
  } cases[] = {
      {{-1, 0}, Status::kInvalidTimestamp},
      {{nan, 0}, Status::kInvalidTimestamp},
      {{inf, 0}, Status::kInvalidTimestamp},
      {{4, 0}, Status::kTimestampOutOfOrder},
      {{9, 2}, Status::kUnknownStack},
      {{9, 0.5}, Status::kUnknownStack},
      {{9, -2}, Status::kUnknownStack},
      {{9, nan}, Status::kUnknownStack},
  };
  for (const Case& c : cases) {
    ProfilerTrace t;
    TraceLoader l(&t);
    LoadSmall(l);
    ASSERT_EQ(LoadSamples(l, {{5, 0}}), Status::kOk);
    EXPECT_EQ(LoadSamples(l, {{6, 1}, c.row, {10, 0}}), c.want)
        << c.row.first << " " << c.row.second;
    EXPECT_EQ(t.samples().size(), 1u);  // the failed span is gone
    // The session's own rule says the same about the time.
    Session s(SessionOptions{1, 100, 0});
    ASSERT_EQ(s.TakeSample(6, StackId::None()), Status::kOk);
    Status session = s.TakeSample(c.row.first, StackId::None());
    if (c.want == Status::kUnknownStack)
      EXPECT_EQ(session, Status::kOk);
    else
      EXPECT_EQ(session, c.want);
  }
}

TEST(TraceLoader, AnUncommittedReservationIsDropped) {
  ProfilerTrace t;
  TraceLoader l(&t);
  LoadSmall(l);
  ASSERT_EQ(LoadSamples(l, {{1, 0}}), Status::kOk);
  l.ReserveSamples(10);
  l.DropSamples();
  EXPECT_EQ(t.samples().size(), 1u);
  l.ReserveSamples(10);
  l.ReserveSamples(3);  // drops the first
  l.DropSamples();
  EXPECT_EQ(t.samples().size(), 1u);
}

TEST(TraceLoader, SpansAcrossChunksKeepOrderChecks) {
  ProfilerTrace t;
  TraceLoader l(&t);
  LoadSmall(l);
  std::vector<std::pair<double, double>> rows;
  for (int i = 0; i < 10000; ++i) rows.push_back({i * 0.5, double(i % 3) - 1});
  ASSERT_EQ(LoadSamples(l, rows), Status::kOk);
  ASSERT_EQ(t.samples().size(), 10000u);
  EXPECT_EQ(t.samples()[9999].timestamp, 9999 * 0.5);
  EXPECT_EQ(LoadSamples(l, {{1, 0}}), Status::kTimestampOutOfOrder);
}

// Chromium's trace of two concurrent native profilers holds samples out of
// time order: as sampled they are kept and Finish() orders them (stable),
// also when the early one arrives in a later span than its place.
TEST(TraceLoader, AsSampledOrdersOutOfOrderSamplesAcrossSpans) {
  ProfilerTrace t;
  Sampled own;
  TraceLoader l(&t, LoadOptions{&own});
  LoadSmall(l);
  std::vector<std::pair<double, double>> rows;
  for (int i = 0; i < 5000; ++i) rows.push_back({double(i), 0});
  rows.push_back({2.5, 1});   // belongs after t=2
  rows.push_back({2.0, -1});  // equal to t=2: stays after it (stable)
  ASSERT_EQ(LoadSamples(l, rows), Status::kOk);
  ASSERT_EQ(LoadSamples(l, {{1.5, 1}, {6000, 0}}), Status::kOk);  // next span
  l.Finish();
  const SampleBuffer& s = t.samples();
  ASSERT_EQ(s.size(), 5004u);
  for (size_t i = 1; i < s.size(); ++i)
    ASSERT_LE(s[i - 1].timestamp, s[i].timestamp) << i;
  EXPECT_EQ(s[2].timestamp, 1.5);
  EXPECT_FALSE(s[2].stack.is_none());
  EXPECT_EQ(s[3].timestamp, 2.0);
  EXPECT_FALSE(s[3].stack.is_none());  // the original t=2 sample first
  EXPECT_EQ(s[4].timestamp, 2.0);
  EXPECT_TRUE(s[4].stack.is_none());
  EXPECT_EQ(s[5].timestamp, 2.5);
  // Only the order is forgiven: a bad time is still refused.
  EXPECT_EQ(LoadSamples(l, {{-1, 0}}), Status::kInvalidTimestamp);
}

TEST(TraceLoader, AsGivenStillRefusesOutOfOrderSamples) {
  ProfilerTrace t;
  TraceLoader l(&t);
  LoadSmall(l);
  EXPECT_EQ(LoadSamples(l, {{2, 0}, {1, 0}}), Status::kTimestampOutOfOrder);
  l.Finish();
  EXPECT_EQ(t.samples().size(), 0u);
}

// Joining: a second load into a trace that holds another's samples (the
// documents a page went through, each timed from its own time origin).
TEST(TraceLoader, JoinsTracesOnOneTimeBaseAndMergesTheirRows) {
  ProfilerTrace t;
  {
    TraceLoader first(&t);
    LoadSmall(first);
    ASSERT_EQ(LoadSamples(first, {{1, 0}, {5, 1}}), Status::kOk);
    first.Finish();
  }
  {
    // The same script and function in the next document, plus one of its own;
    // its times start again near 0 and move by the offset.
    LoadOptions o;
    o.time_offset_ms = 100;
    TraceLoader second(&t, o);
    LoadSmall(second);
    ASSERT_EQ(second.AddFrame("g", 0, 9, 1), Status::kOk);
    const uint32_t g[] = {2, 0};
    ASSERT_EQ(second.AddStacks(g, 1), Status::kOk);
    ASSERT_EQ(LoadSamples(second, {{0.5, 1}, {2, 2}, {3, -1}}), Status::kOk);
    second.Finish();
  }
  EXPECT_EQ(t.frames().size(), 3u);  // main, f shared; g new
  EXPECT_EQ(t.stacks().size(), 3u);
  ASSERT_EQ(t.samples().size(), 5u);
  const double want[] = {1, 5, 100.5, 102, 103};
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(t.samples()[i].timestamp, want[i]);
  EXPECT_EQ(t.samples()[2].stack.value, 1u);  // f, the first load's stack
  EXPECT_EQ(t.samples()[3].stack.value, 2u);  // g under main
}

TEST(TraceLoader, AJoinedTraceThatOverlapsIsMergedInTimeOrderStably) {
  ProfilerTrace t;
  {
    TraceLoader first(&t);
    LoadSmall(first);
    ASSERT_EQ(LoadSamples(first, {{1, 0}, {4, 0}, {6, 0}, {9, 0}}),
              Status::kOk);
    first.Finish();
  }
  LoadOptions o;
  o.time_offset_ms = 3;
  TraceLoader second(&t, o);
  LoadSmall(second);
  // 3+1=4 ties the first trace's 4: the earlier load's sample stays first.
  ASSERT_EQ(LoadSamples(second, {{1, 1}, {2, 1}, {10, 1}}), Status::kOk);
  second.Finish();
  std::vector<std::pair<double, uint32_t>> got;
  t.samples().ForEach([&](const Sample& s) {
    got.push_back({s.timestamp, s.stack.value});
  });
  const std::vector<std::pair<double, uint32_t>> want = {
      {1, 0}, {4, 0}, {4, 1}, {5, 1}, {6, 0}, {9, 0}, {13, 1}};
  EXPECT_EQ(got, want);
}

TEST(TraceLoader, AJoinedTraceKeepsItsOwnOrderRule) {
  ProfilerTrace t;
  {
    TraceLoader first(&t);
    LoadSmall(first);
    ASSERT_EQ(LoadSamples(first, {{50, 0}}), Status::kOk);
  }
  LoadOptions o;
  o.time_offset_ms = 10;
  TraceLoader second(&t, o);
  LoadSmall(second);
  // Within one load, samples still come in time order (as given) ...
  EXPECT_EQ(LoadSamples(second, {{5, 0}, {4, 0}}),
            Status::kTimestampOutOfOrder);
  // ... and a time the offset cannot make valid is refused.
  EXPECT_EQ(LoadSamples(second, {{-11, 0}}), Status::kInvalidTimestamp);
  EXPECT_EQ(t.samples().size(), 1u);
  ASSERT_EQ(LoadSamples(second, {{1, 0}}), Status::kOk);
  second.Finish();
  EXPECT_EQ(t.samples()[0].timestamp, 11);
  EXPECT_EQ(t.samples()[1].timestamp, 50);
}

}  // namespace
}  // namespace webprof
