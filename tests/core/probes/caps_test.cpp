// The probes' caps (src/probes/window.h): a page inventing names never
// aborts the core nor grows it without bound — new names per window, names
// for life and aggregates per window each stop at their cap, drop and count.
#include <gtest/gtest.h>

#include <string>

#include "probes/window.h"

namespace webprof {
namespace {

std::string NameOf(int window, uint32_t i) {
  return "w" + std::to_string(window) + ":" + std::to_string(i);
}

TEST(ProbeCaps, NewNamesPerWindowStopAtTheCapAndComeBackNextWindow) {
  Recorder r;
  r.Start(0, {});
  for (uint32_t i = 0; i < Recorder::kMaxNewNamesPerWindow; ++i)
    ASSERT_FALSE(r.Intern(NameOf(1, i)).is_none()) << i;
  EXPECT_TRUE(r.Intern("one too many").is_none());
  EXPECT_TRUE(r.Intern("and another").is_none());
  // Known names still resolve.
  EXPECT_FALSE(r.Intern(NameOf(1, 7)).is_none());
  ASSERT_EQ(r.End(1), Status::kOk);
  EXPECT_EQ(r.last_report().names_dropped, 2u);
  r.Start(2, {});
  EXPECT_FALSE(r.Intern("one too many").is_none());
  ASSERT_EQ(r.End(3), Status::kOk);
  EXPECT_EQ(r.last_report().names_dropped, 0u);
}

TEST(ProbeCaps, NamesForLifeStopAtTheCapWithoutAborting) {
  Recorder r;
  uint32_t window = 0;
  uint64_t dropped = 0;
  // More windows than the table holds, each inventing its share of names.
  while (r.names().size() < Recorder::kMaxNames && window < 100) {
    r.Start(window, {});
    for (uint32_t i = 0; i < Recorder::kMaxNewNamesPerWindow; ++i)
      r.Intern(NameOf(window, i));
    r.End(window + 0.5);
    ++window;
  }
  EXPECT_EQ(r.names().size(), Recorder::kMaxNames);
  r.Start(1000, {});
  EXPECT_TRUE(r.Intern("past the table").is_none());
  int32_t id =
      r.AggrStart(StringId::None(), 1);  // what the glue never sends, but safe
  EXPECT_EQ(id, -1);
  r.End(1001);
  dropped = r.last_report().names_dropped;
  EXPECT_EQ(dropped, 1u);
}

TEST(ProbeCaps, AggregatesPerWindowStopAtTheCapAndBucketsStayBounded) {
  Recorder r;
  const uint32_t cap = AggregateTable::kMaxAggregates;
  uint32_t most = 0;
  for (int window = 0; window < 12; ++window) {
    r.Start(window * 10, {});
    // Twice the cap of names, all new this window.
    for (uint32_t i = 0; i < 2 * cap; ++i) {
      StringId n = r.Intern(NameOf(window, i));
      ASSERT_FALSE(n.is_none());
      // A name past the cap is refused at its start (counted as dropped).
      int32_t id = r.AggrStart(n, window * 10 + 1);
      ASSERT_EQ(id >= 0, i < cap) << i;
      if (id >= 0) EXPECT_TRUE(r.AggrEnd(id, window * 10 + 2));
    }
    if (r.aggregates().buckets_allocated() > most)
      most = r.aggregates().buckets_allocated();
    ASSERT_EQ(r.End(window * 10 + 3), Status::kOk);
    EXPECT_EQ(r.last_report().aggregates.size(), cap);
    EXPECT_EQ(r.last_report().aggregates_dropped, cap);
  }
  // Live buckets never exceed twice the cap however many names came and went.
  EXPECT_LE(most, 2 * cap);
  EXPECT_LE(r.aggregates().buckets_allocated(), 2 * cap);
}

TEST(ProbeCaps, NameModeEndsPastTheCapAreDroppedToo) {
  Recorder r;
  r.Start(0, {});
  const uint32_t cap = AggregateTable::kMaxAggregates;
  for (uint32_t i = 0; i <= cap; ++i) {
    StringId n = r.Intern(NameOf(0, i));
    r.AggrStartNamed(n, 1);
    bool folded = r.AggrEndNamed(n, 2);
    EXPECT_EQ(folded, i < cap) << i;
  }
  r.End(3);
  EXPECT_EQ(r.last_report().aggregates_dropped, 1u);
}

}  // namespace
}  // namespace webprof
