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
  // A parent after its child, and a good row before it: the call keeps none.
  const uint32_t late_parent[] = {0, kNone, 1, 3, 0, kNone};
  EXPECT_EQ(l.AddStacks(late_parent, 3), Status::kUnknownParent);
  ASSERT_EQ(LoadSamples(l, {{1, 1}}), Status::kOk);
  EXPECT_EQ(LoadSamples(l, {{2, 2}}), Status::kUnknownStack);  // W3C 2 is gone
  EXPECT_EQ(t.samples().size(), 1u);
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

}  // namespace
}  // namespace webprof
