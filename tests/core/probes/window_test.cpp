// The recording window's options and boundaries, and the mark and trace
// timelines' rules (seed 004).
#include "probes/window.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace webprof {
namespace {

TEST(WindowOptions, ValidAndInvalidLimits) {
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ResolveMarkLimit(2), 2u);
  EXPECT_EQ(ResolveMarkLimit(2048), 2048u);
  for (double bad : {1.0, 0.0, -5.0, 2.5, nan, inf}) {
    EXPECT_EQ(ResolveMarkLimit(bad), 1024u) << bad;
  }
  EXPECT_EQ(ResolveTraceLimit(0), 0u);
  EXPECT_EQ(ResolveTraceLimit(4096), 4096u);
  for (double bad : {-1.0, 0.5, nan, inf, -inf}) {
    EXPECT_EQ(ResolveTraceLimit(bad), 1024u) << bad;
  }
  EXPECT_EQ(ResolveTraceLimit(1e12), TraceTimeline::kMaxLimit);
}

TEST(Window, BoundaryMarksEvenWithoutProbes) {
  Recorder r;
  EXPECT_EQ(r.End(1), Status::kNotRecording);
  EXPECT_TRUE(r.Start(100, PerfStartOptions{}));
  ASSERT_EQ(r.End(150), Status::kOk);
  const WindowReport& w = r.last_report();
  ASSERT_EQ(w.marks.size(), 2u);
  EXPECT_EQ(w.marks[0].name, r.start_name());
  EXPECT_TRUE(w.marks[0].boundary);
  EXPECT_EQ(w.StartOf(w.marks[0]), 0);
  EXPECT_EQ(w.marks[0].timestamp, 100);
  EXPECT_EQ(w.marks[1].name, r.end_name());
  EXPECT_EQ(w.StartOf(w.marks[1]), 50);
  EXPECT_EQ(w.marks[1].timestamp, 150);
  EXPECT_EQ(w.generation, 1u);
  EXPECT_EQ(r.End(160), Status::kNotRecording);
}

TEST(Window, RepeatedStartIsIdempotentKeepingDataAndCapacity) {
  Recorder r;
  StringId m = r.Intern("m");
  r.Start(0, PerfStartOptions{3, 1});
  EXPECT_TRUE(r.Mark(m, 1, kNoInfo));
  EXPECT_FALSE(r.Start(2, PerfStartOptions{100, 100}));
  EXPECT_EQ(r.marks().limit(), 3u);
  EXPECT_EQ(r.traces().limit(), 1u);
  EXPECT_FALSE(r.Mark(m, 3, kNoInfo));  // still limit 3
  r.End(4);
  EXPECT_EQ(r.last_report().marks.size(), 3u);
  EXPECT_EQ(r.last_report().started_at, 0);
  EXPECT_EQ(r.last_report().marks_dropped, 1u);
}

TEST(Window, NewWindowRereadsOptions) {
  Recorder r;
  r.Start(0, PerfStartOptions{5, 7});
  r.End(1);
  r.Start(2, PerfStartOptions{});
  EXPECT_EQ(r.marks().limit(), 1024u);
  EXPECT_EQ(r.traces().limit(), 1024u);
  r.End(3);
  EXPECT_EQ(r.last_report().generation, 2u);
}

TEST(Marks, LimitKeepsLastSlotForEndBoundary) {
  Recorder r;
  StringId m = r.Intern("m");
  r.Start(0, PerfStartOptions{4, 0});
  EXPECT_TRUE(r.Mark(m, 1, 0));
  EXPECT_TRUE(r.Mark(m, 2, kNoInfo));  // same name: separate events
  EXPECT_FALSE(r.Mark(m, 3, 1));
  EXPECT_FALSE(r.Mark(m, 4, 2));
  r.End(5);
  const WindowReport& w = r.last_report();
  ASSERT_EQ(w.marks.size(), 4u);
  EXPECT_EQ(w.marks_dropped, 2u);
  EXPECT_EQ(w.marks[1].info, 0);
  EXPECT_EQ(w.marks[2].info, kNoInfo);
  EXPECT_EQ(w.marks[3].name, r.end_name());
}

TEST(Marks, MinimumLimitHoldsOnlyBoundaries) {
  Recorder r;
  StringId m = r.Intern("m");
  r.Start(0, PerfStartOptions{2, 0});
  EXPECT_FALSE(r.Mark(m, 1, kNoInfo));
  r.End(2);
  EXPECT_EQ(r.last_report().marks.size(), 2u);
  EXPECT_EQ(r.last_report().marks_dropped, 1u);
}

TEST(Marks, NotRecordingIsNoop) {
  Recorder r;
  StringId m = r.Intern("m");
  EXPECT_FALSE(r.Mark(m, 1, kNoInfo));
}

TEST(Traces, NestedKeepStartOrderAndBackfill) {
  Recorder r;
  StringId app = r.Intern("module:app"), router = r.Intern("module:router");
  r.Start(10, PerfStartOptions{});
  int32_t a = r.TraceStart(app, 11, false);
  int32_t b = r.TraceStart(router, 12, false);
  EXPECT_TRUE(r.TraceEnd(b, 15, 0));
  EXPECT_TRUE(r.TraceEnd(a, 20, 1));
  EXPECT_FALSE(r.TraceEnd(a, 21, 2));  // already ended
  r.End(30);
  const WindowReport& w = r.last_report();
  ASSERT_EQ(w.traces.size(), 2u);
  EXPECT_EQ(w.traces[0].name, app);
  EXPECT_EQ(w.StartOf(w.traces[0]), 1);
  EXPECT_EQ(w.traces[0].timestamp, 11);
  EXPECT_EQ(w.traces[0].duration, 9);
  EXPECT_EQ(w.traces[0].info, 1);
  EXPECT_EQ(w.traces[1].name, router);
  EXPECT_EQ(w.traces[1].duration, 3);
  EXPECT_EQ(w.traces[1].info, 0);
}

TEST(Traces, UnfinishedRemovedAndCountedIncomplete) {
  Recorder r;
  StringId t = r.Intern("t");
  r.Start(0, PerfStartOptions{});
  r.TraceStart(t, 1, false);
  int32_t done = r.TraceStart(t, 2, false);
  r.TraceStart(t, 3, false);
  r.TraceEnd(done, 4, kNoInfo);
  r.End(5);
  EXPECT_EQ(r.last_report().traces.size(), 1u);
  EXPECT_EQ(r.last_report().traces[0].timestamp, 2);
  EXPECT_EQ(r.last_report().traces_incomplete, 2u);
}

TEST(Traces, LimitDropsAndZeroStoresNothing) {
  Recorder r;
  StringId t = r.Intern("t");
  r.Start(0, PerfStartOptions{1024, 2});
  int32_t a = r.TraceStart(t, 1, false);
  int32_t b = r.TraceStart(t, 2, false);
  EXPECT_EQ(r.TraceStart(t, 3, false), -1);
  r.TraceEnd(a, 4, kNoInfo);
  r.TraceEnd(b, 4, kNoInfo);
  EXPECT_FALSE(r.TraceEnd(-1, 5, 0));
  r.End(6);
  EXPECT_EQ(r.last_report().traces.size(), 2u);
  EXPECT_EQ(r.last_report().traces_dropped, 1u);

  r.Start(10, PerfStartOptions{1024, 0});
  EXPECT_EQ(r.TraceStart(t, 11, false), -1);
  EXPECT_EQ(r.TraceStart(t, 12, true), -1);
  EXPECT_FALSE(r.TraceEndNamed(t, 13, kNoInfo));
  r.End(14);
  EXPECT_TRUE(r.last_report().traces.empty());
  EXPECT_EQ(r.last_report().traces_dropped, 2u);
  EXPECT_EQ(r.last_report().traces_incomplete, 0u);
}

TEST(Traces, MustStartInsideWindow) {
  Recorder r;
  StringId t = r.Intern("t");
  EXPECT_EQ(r.TraceStart(t, 1, false), -1);
  EXPECT_EQ(r.TraceStart(t, 1, true), -1);
  r.Start(2, PerfStartOptions{});
  EXPECT_FALSE(r.TraceEndNamed(t, 3, kNoInfo));
  r.End(4);
  EXPECT_TRUE(r.last_report().traces.empty());
}

TEST(Traces, NameModeOverwriteCountsOldAsIncomplete) {
  Recorder r;
  StringId t = r.Intern("request:goods");
  r.Start(0, PerfStartOptions{});
  r.TraceStart(t, 1, true);
  r.TraceStart(t, 2, true);
  EXPECT_TRUE(r.TraceEndNamed(t, 5, 0));
  EXPECT_FALSE(r.TraceEndNamed(t, 6, 1));  // consumed
  r.End(7);
  ASSERT_EQ(r.last_report().traces.size(), 1u);
  EXPECT_EQ(r.last_report().traces[0].timestamp, 2);
  EXPECT_EQ(r.last_report().traces[0].duration, 3);
  EXPECT_EQ(r.last_report().traces_incomplete, 1u);
}

// Defect 3: a name-mode start dropped by the limit must not leave the
// previous same-name event to be ended by the next traceEnd(name).
TEST(Traces, DroppedNamedStartDetachesPreviousSameNameEvent) {
  Recorder r;
  StringId t = r.Intern("t");
  r.Start(0, PerfStartOptions{1024, 1});
  EXPECT_GE(r.TraceStart(t, 1, true), 0);
  EXPECT_EQ(r.TraceStart(t, 2, true), -1);  // dropped
  EXPECT_FALSE(r.TraceEndNamed(t, 3, kNoInfo));
  r.End(4);
  EXPECT_TRUE(r.last_report().traces.empty());
  EXPECT_EQ(r.last_report().traces_dropped, 1u);
  EXPECT_EQ(r.last_report().traces_incomplete, 1u);
}

TEST(Traces, IdsOfOldWindowCannotEndNewEvents) {
  Recorder r;
  StringId t = r.Intern("t");
  r.Start(0, PerfStartOptions{});
  int32_t old_id = r.TraceStart(t, 1, false);
  r.End(2);
  r.Start(3, PerfStartOptions{});
  int32_t fresh = r.TraceStart(t, 4, false);  // same index 0
  EXPECT_NE(old_id, fresh);
  EXPECT_FALSE(r.TraceEnd(old_id, 5, kNoInfo));
  EXPECT_TRUE(r.TraceEnd(fresh, 6, kNoInfo));
  r.End(7);
  ASSERT_EQ(r.last_report().traces.size(), 1u);
  EXPECT_EQ(r.last_report().traces[0].duration, 2);
  EXPECT_EQ(r.last_report().traces_incomplete, 0u);
}

TEST(Traces, NamedStartOfOldWindowDoesNotLeak) {
  Recorder r;
  StringId t = r.Intern("t");
  r.Start(0, PerfStartOptions{});
  r.TraceStart(t, 1, true);
  r.End(2);
  r.Start(3, PerfStartOptions{});
  EXPECT_FALSE(r.TraceEndNamed(t, 4, kNoInfo));
  r.End(5);
  EXPECT_TRUE(r.last_report().traces.empty());
}

}  // namespace
}  // namespace webprof
