// Which attached sessions a sample is for: mask bits in attach order, the
// sessions past the mask always, outcomes spread back per session.
#include "sampling/session_set.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace webprof {
namespace {

std::vector<std::unique_ptr<Session>> MakeSessions(size_t n, uint32_t max) {
  std::vector<std::unique_ptr<Session>> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(std::make_unique<Session>(SessionOptions{1, max, 0}));
  return v;
}

TEST(SessionSet, AttachOnceDetachKeepsOrder) {
  auto s = MakeSessions(3, 10);
  SessionSet set;
  EXPECT_EQ(set.Attach(s[0].get()), 1u);
  EXPECT_EQ(set.Attach(s[1].get()), 2u);
  EXPECT_EQ(set.Attach(s[1].get()), 2u);
  EXPECT_EQ(set.Attach(s[2].get()), 3u);
  EXPECT_EQ(set.Detach(s[0].get()), 2u);
  set.Select(0b01);  // now bit 0 is s[1]
  ASSERT_EQ(set.selected_count(), 1u);
  EXPECT_EQ(set.selected()[0], s[1].get());
  EXPECT_EQ(set.Detach(s[0].get()), 2u);  // not attached: nothing changes
}

TEST(SessionSet, SelectsByMaskAndSpreadsResultsBack) {
  auto s = MakeSessions(3, 10);
  SessionSet set;
  for (auto& x : s) set.Attach(x.get());
  set.Select(0b101);
  ASSERT_EQ(set.selected_count(), 2u);
  EXPECT_EQ(set.selected()[1], s[2].get());
  set.selected_results()[0] = Status::kBufferFull;
  set.selected_results()[1] = Status::kPaused;
  set.Spread(0b101);
  EXPECT_EQ(set.results()[0], Status::kBufferFull);
  EXPECT_EQ(set.results()[1], Status::kOk);  // not selected
  EXPECT_EQ(set.results()[2], Status::kPaused);
}

TEST(SessionSet, SessionsPastTheMaskAreAlwaysSelected) {
  auto s = MakeSessions(SessionSet::kMaskBits + 2, 10);
  SessionSet set;
  for (auto& x : s) set.Attach(x.get());
  set.Select(0);
  EXPECT_EQ(set.selected_count(), 2u);
  EXPECT_EQ(set.selected()[0], s[SessionSet::kMaskBits].get());
}

TEST(SessionSet, IdleSamplesGoToTheSelectedSessionsOnly) {
  auto s = MakeSessions(2, 1);
  SessionSet set;
  set.Attach(s[0].get());
  set.Attach(s[1].get());
  set.TakeIdle(5, 0b10);
  EXPECT_EQ(s[0]->trace().samples().size(), 0u);
  EXPECT_EQ(s[1]->trace().samples().size(), 1u);
  set.TakeIdle(6, 0b11);
  EXPECT_EQ(set.results()[0], Status::kOk);
  EXPECT_EQ(set.results()[1], Status::kBufferFull);
}

TEST(SessionSet, ABatchOfIdleSamplesReportsBufferFullOnce) {
  auto s = MakeSessions(2, 2);
  SessionSet set;
  set.Attach(s[0].get());
  set.Attach(s[1].get());
  const DueSample due[] = {{1, 0b01}, {2, 0b11}, {3, 0b01}, {4, 0b11}};
  set.TakeIdle(due, 4);
  EXPECT_EQ(s[0]->trace().samples().size(), 2u);
  EXPECT_EQ(s[1]->trace().samples().size(), 2u);
  EXPECT_EQ(set.results()[0], Status::kBufferFull);  // at 3; 4 was refused
  EXPECT_EQ(set.results()[1], Status::kOk);          // full at its 2nd, no 3rd
  EXPECT_EQ(s[1]->trace().samples()[1].timestamp, 4);
  set.TakeIdle(due, 0);  // an empty batch: every result kOk
  EXPECT_EQ(set.results()[0], Status::kOk);
}

}  // namespace
}  // namespace webprof
