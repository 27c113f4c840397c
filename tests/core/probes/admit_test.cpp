// Admission before the clock (src/probes/window.h Admit*): the glue reads
// the clock only for a probe the recorder admits. Each refusal is counted or
// consumed exactly as the timed call would have been, and an admission
// changes nothing, so the timed call after it is accepted.
#include <gtest/gtest.h>

#include <string>

#include "probes/window.h"

namespace webprof {
namespace {

TEST(ProbeAdmission, StaleAndEndedAggregateIdsAreRefusedWithoutChange) {
  Recorder r;
  StringId a = r.Intern("a");
  r.Start(0, {});
  int32_t id = r.AggrStart(a, 1);
  ASSERT_GE(id, 0);
  EXPECT_TRUE(r.AdmitAggrEnd(id));
  EXPECT_TRUE(r.AdmitAggrEnd(id));  // admitting twice changes nothing
  EXPECT_TRUE(r.AggrEnd(id, 3));
  EXPECT_FALSE(r.AdmitAggrEnd(id));  // ended
  EXPECT_FALSE(r.AdmitAggrEnd(-1));
  EXPECT_FALSE(r.AdmitAggrEnd(12345));  // never handed out
  int32_t open = r.AggrStart(a, 4);
  r.End(5);
  r.Start(10, {});
  EXPECT_FALSE(r.AdmitAggrEnd(open));    // an older window's
  EXPECT_FALSE(r.AdmitAggrEndNamed(a));  // no pending start
  r.End(11);
  EXPECT_EQ(r.last_report().aggregates_dropped, 0u);
  EXPECT_FALSE(r.AdmitAggrStart(a));  // not recording
}

TEST(ProbeAdmission, AggregatesPastTheCapAreRefusedAndCountedOnce) {
  Recorder r;
  const uint32_t cap = AggregateTable::kMaxAggregates;
  std::vector<StringId> names;
  for (uint32_t i = 0; i <= cap + 1; ++i)
    names.push_back(r.Intern("n" + std::to_string(i)));
  r.Start(0, {});
  // A span opened while its name could still fold...
  int32_t late = r.AggrStart(names[cap], 1);
  ASSERT_GE(late, 0);
  r.AggrStartNamed(names[cap + 1], 1);
  for (uint32_t i = 0; i < cap; ++i) {
    ASSERT_TRUE(r.AdmitAggrStart(names[i]));
    ASSERT_TRUE(r.AggrEnd(r.AggrStart(names[i], 1), 2));
  }
  // ...is closed at its end's admission once the cap filled: counted, and
  // its id is stale from then on.
  EXPECT_FALSE(r.AdmitAggrEnd(late));
  EXPECT_FALSE(r.AdmitAggrEnd(late));
  EXPECT_FALSE(r.AdmitAggrEndNamed(names[cap + 1]));  // start consumed
  EXPECT_FALSE(r.AdmitAggrEndNamed(names[cap + 1]));
  EXPECT_FALSE(r.AdmitAggrStart(names[cap]));  // refused at the start
  EXPECT_TRUE(r.AdmitAggrStart(names[0]));     // a folded name still is not
  r.End(3);
  EXPECT_EQ(r.last_report().aggregates.size(), cap);
  EXPECT_EQ(r.last_report().aggregates_dropped, 3u);
}

TEST(ProbeAdmission, MarksPastTheLimitAreRefusedAndCounted) {
  Recorder r;
  StringId m = r.Intern("m");
  r.Start(0, PerfStartOptions{3, 0});  // start + one mark + end
  EXPECT_TRUE(r.AdmitMark(m));
  EXPECT_TRUE(r.Mark(m, 1, kNoInfo));
  EXPECT_FALSE(r.AdmitMark(m));
  EXPECT_FALSE(r.AdmitMark(m));
  EXPECT_FALSE(r.AdmitMark(StringId::None()));  // unknown: not counted
  r.End(2);
  EXPECT_EQ(r.last_report().marks.size(), 3u);
  EXPECT_EQ(r.last_report().marks_dropped, 2u);
}

TEST(ProbeAdmission, TracesPastTheLimitStaleIdsAndNamedEnds) {
  Recorder r;
  StringId t = r.Intern("t");
  r.Start(0, PerfStartOptions{1024, 2});
  EXPECT_TRUE(r.AdmitTraceStart(t, true));
  int32_t first = r.TraceStart(t, 1, true);
  int32_t second = r.TraceStart(t, 2, false);
  ASSERT_GE(first, 0);
  ASSERT_GE(second, 0);
  // Past the limit: refused and counted; a named one detaches its name, so
  // the next traceEnd(name) cannot end the older event.
  EXPECT_FALSE(r.AdmitTraceStart(t, false));
  EXPECT_FALSE(r.AdmitTraceStart(t, true));
  EXPECT_FALSE(r.AdmitTraceEndNamed(t));
  EXPECT_TRUE(r.AdmitTraceEnd(second));
  EXPECT_TRUE(r.TraceEnd(second, 3, kNoInfo));
  EXPECT_FALSE(r.AdmitTraceEnd(second));  // ended
  EXPECT_FALSE(r.AdmitTraceEnd(first + (1 << TraceTimeline::kIndexBits)));
  r.End(4);
  EXPECT_EQ(r.last_report().traces_dropped, 2u);
  EXPECT_EQ(r.last_report().traces.size(), 1u);
  EXPECT_EQ(r.last_report().traces_incomplete, 1u);

  r.Start(10, {});
  EXPECT_FALSE(r.AdmitTraceEnd(second));  // an older window's id
  // A named event ended by its id: the name's end is refused and consumed.
  int32_t named = r.TraceStart(t, 11, true);
  EXPECT_TRUE(r.AdmitTraceEndNamed(t));
  EXPECT_TRUE(r.TraceEnd(named, 12, kNoInfo));
  EXPECT_FALSE(r.AdmitTraceEndNamed(t));
  EXPECT_FALSE(r.TraceEndNamed(t, 13, kNoInfo));
  r.End(14);
  EXPECT_EQ(r.last_report().traces_dropped, 0u);
}

}  // namespace
}  // namespace webprof
