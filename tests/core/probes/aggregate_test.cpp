// Aggregates: id mode (slots, free list, generations), name mode, stats.
#include <gtest/gtest.h>

#include "probes/window.h"

namespace webprof {
namespace {

PerfStartOptions Defaults() { return PerfStartOptions{}; }

TEST(AggrIdMode, NestingOutOfOrderAndSameNameConcurrency) {
  Recorder r;
  StringId a = r.Intern("a"), b = r.Intern("b");
  r.Start(0, Defaults());
  int32_t outer = r.AggrStart(a, 1);
  int32_t inner = r.AggrStart(b, 2);
  int32_t a2 = r.AggrStart(a, 3);     // same name, concurrent
  EXPECT_TRUE(r.AggrEnd(outer, 10));  // out of order: outer first
  EXPECT_TRUE(r.AggrEnd(inner, 4));
  EXPECT_TRUE(r.AggrEnd(a2, 5));
  ASSERT_EQ(r.End(20), Status::kOk);
  const auto& ag = r.last_report().aggregates;
  ASSERT_EQ(ag.size(), 2u);
  EXPECT_EQ(ag[0].name, a);
  EXPECT_EQ(ag[0].count, 2u);
  EXPECT_DOUBLE_EQ(ag[0].sum, 9 + 2);
  EXPECT_DOUBLE_EQ(ag[0].avg, 5.5);
  EXPECT_DOUBLE_EQ(ag[0].max, 9);
  EXPECT_DOUBLE_EQ(ag[0].min, 2);
  EXPECT_EQ(ag[1].name, b);
  EXPECT_DOUBLE_EQ(ag[1].sum, 2);
}

TEST(AggrIdMode, NotRecordingReturnsMinusOne) {
  Recorder r;
  StringId a = r.Intern("a");
  EXPECT_EQ(r.AggrStart(a, 1), -1);
  EXPECT_FALSE(r.AggrEnd(-1, 2));
  r.Start(0, Defaults());
  EXPECT_GE(r.AggrStart(a, 1), 0);
  r.End(3);
  EXPECT_EQ(r.AggrStart(a, 4), -1);
}

TEST(AggrIdMode, InvalidAndRepeatedEndsAreNoops) {
  Recorder r;
  StringId a = r.Intern("a");
  r.Start(0, Defaults());
  int32_t id = r.AggrStart(a, 1);
  EXPECT_FALSE(r.AggrEnd(-1, 2));
  EXPECT_FALSE(r.AggrEnd(id + 1, 2));   // a never-opened slot
  EXPECT_FALSE(r.AggrEnd(1 << 29, 2));  // out of range
  EXPECT_TRUE(r.AggrEnd(id, 2));
  EXPECT_FALSE(r.AggrEnd(id, 3));
  r.End(5);
  EXPECT_EQ(r.last_report().aggregates[0].count, 1u);
}

// Defect 2 of the reference implementation: a double end must not end the
// span that reused the slot.
TEST(AggrIdMode, DoubleEndDoesNotEndSpanReusingTheSlot) {
  Recorder r;
  StringId a = r.Intern("a"), b = r.Intern("b");
  r.Start(0, Defaults());
  int32_t first = r.AggrStart(a, 1);
  ASSERT_TRUE(r.AggrEnd(first, 2));
  int32_t second = r.AggrStart(b, 3);
  // Same slot (LIFO free list), different generation.
  EXPECT_EQ(first & 0xFFFF, second & 0xFFFF);
  EXPECT_NE(first, second);
  EXPECT_FALSE(r.AggrEnd(first, 4));
  EXPECT_TRUE(r.AggrEnd(second, 10));
  r.End(11);
  const auto& ag = r.last_report().aggregates;
  ASSERT_EQ(ag.size(), 2u);
  EXPECT_DOUBLE_EQ(ag[1].sum, 7);  // b ended at 10, not at 4
}

// Defect 1: an id from a previous window, ended in the new one, must not
// count.
TEST(AggrIdMode, IdFromPreviousWindowDoesNotCount) {
  Recorder r;
  StringId a = r.Intern("a");
  r.Start(0, Defaults());
  int32_t old_id = r.AggrStart(a, 1);
  r.End(2);
  r.Start(3, Defaults());
  int32_t fresh = r.AggrStart(a, 4);  // reuses the slot
  EXPECT_FALSE(r.AggrEnd(old_id, 5));
  r.End(6);
  EXPECT_TRUE(r.last_report().aggregates.empty());
  (void)fresh;
}

TEST(AggrIdMode, NoAllocationInSteadyState) {
  Recorder r;
  StringId a = r.Intern("a");
  r.Start(0, Defaults());
  for (int i = 0; i < 1000; ++i) r.AggrEnd(r.AggrStart(a, i), i + 1);
  size_t open = r.aggregates().open_spans();
  EXPECT_EQ(open, 0u);
  // The free list hands back slot 0 each time.
  int32_t id = r.AggrStart(a, 0);
  EXPECT_EQ(id & 0xFFFF, 0);
  r.End(1);
}

TEST(AggrIdMode, ManyOpenSpansGrowThenRefuseAtCap) {
  Recorder r;
  StringId a = r.Intern("a");
  r.Start(0, Defaults());
  std::vector<int32_t> ids;
  for (uint32_t i = 0; i < AggregateTable::kMaxSlots; ++i) {
    ids.push_back(r.AggrStart(a, 0));
    ASSERT_GE(ids.back(), 0);
  }
  EXPECT_EQ(r.AggrStart(a, 0), -1);
  EXPECT_EQ(r.aggregates().open_refused(), 1u);
  for (int32_t id : ids) ASSERT_TRUE(r.AggrEnd(id, 1));
  r.End(2);
  EXPECT_EQ(r.last_report().aggregates[0].count, AggregateTable::kMaxSlots);
}

TEST(AggrNameMode, LaterStartOverwritesAndEndConsumes) {
  Recorder r;
  StringId a = r.Intern("a");
  r.Start(0, Defaults());
  r.AggrStartNamed(a, 1);
  r.AggrStartNamed(a, 5);  // overwrites
  EXPECT_TRUE(r.AggrEndNamed(a, 7));
  EXPECT_FALSE(r.AggrEndNamed(a, 8));  // consumed
  r.End(9);
  ASSERT_EQ(r.last_report().aggregates.size(), 1u);
  EXPECT_EQ(r.last_report().aggregates[0].count, 1u);
  EXPECT_DOUBLE_EQ(r.last_report().aggregates[0].sum, 2);
}

TEST(AggrNameMode, StartBeforeWindowCountsIfEndInside) {
  Recorder r;
  StringId a = r.Intern("a"), b = r.Intern("b");
  r.AggrStartNamed(a, 1);
  r.AggrStartNamed(b, 1);
  EXPECT_FALSE(r.AggrEndNamed(b, 2));  // not recording: no sample
  r.Start(3, Defaults());
  EXPECT_TRUE(r.AggrEndNamed(a, 4));
  r.End(5);
  ASSERT_EQ(r.last_report().aggregates.size(), 1u);
  EXPECT_DOUBLE_EQ(r.last_report().aggregates[0].sum, 3);
}

TEST(AggrStats, NewWindowStartsEmptyAndPercentilesReported) {
  Recorder r;
  StringId a = r.Intern("a");
  r.Start(0, Defaults());
  for (int i = 1; i <= 100; ++i) r.AggrEnd(r.AggrStart(a, 0), i);
  r.End(200);
  const AggrResult& x = r.last_report().aggregates[0];
  EXPECT_EQ(x.count, 100u);
  EXPECT_NEAR(x.p50, 50, 50 * LogHistogram::kRelativeErrorBound);
  EXPECT_NEAR(x.p90, 90, 90 * LogHistogram::kRelativeErrorBound);
  EXPECT_NEAR(x.p99, 99, 99 * LogHistogram::kRelativeErrorBound);
  EXPECT_DOUBLE_EQ(x.min, 1);
  EXPECT_DOUBLE_EQ(x.max, 100);
  r.Start(300, Defaults());
  r.End(301);
  EXPECT_TRUE(r.last_report().aggregates.empty());
}

TEST(AggrStats, UnknownNameIdIsIgnored) {
  Recorder r;
  r.Start(0, Defaults());
  EXPECT_EQ(r.AggrStart(StringId(999), 1), -1);
  r.AggrStartNamed(StringId(999), 1);
  EXPECT_FALSE(r.AggrEndNamed(StringId(999), 2));
  r.End(3);
  EXPECT_TRUE(r.last_report().aggregates.empty());
}

}  // namespace
}  // namespace webprof
