// The poisoning rule: a call that never returned (a trap or abort unwinds
// without running destructors, simulated here by an entry never closed)
// poisons the instance, and every later entry is refused for good.
#include "boundary/health.h"

#include <gtest/gtest.h>

namespace webprof::boundary {
namespace {

TEST(Health, CallsThatReturnLeaveTheInstanceUsable) {
  Health h;
  for (int i = 0; i < 3; ++i) {
    Entry e(h);
    EXPECT_TRUE(e);
    EXPECT_EQ(h.state(), Health::State::kInCall);
  }
  EXPECT_TRUE(h.usable());
  EXPECT_EQ(h.state(), Health::State::kIdle);
}

TEST(Health, ACallThatNeverReturnedPoisonsEveryLaterEntry) {
  Health h;
  ASSERT_TRUE(h.Enter());  // trapped: Leave() never runs
  EXPECT_FALSE(h.usable()) << "seen between calls, an open entry trapped";
  int ran = 0;
  for (int i = 0; i < 5; ++i) {  // the hot paths too: nothing runs
    Entry e(h);
    if (e) ++ran;
  }
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(h.state(), Health::State::kPoisoned);
  EXPECT_FALSE(h.usable());
}

TEST(Health, PoisonByTheGlueIsForGood) {
  Health h;
  h.Poison();
  EXPECT_FALSE(h.usable());
  EXPECT_FALSE(Entry(h));
  h.ArmTrap(+[] {});  // cannot revive it
  EXPECT_FALSE(Entry(h));
  EXPECT_EQ(h.state(), Health::State::kPoisoned);
}

int traps = 0;
void CountTrap() { ++traps; }

TEST(Health, AnArmedTrapFiresAtTheNextEntryAndThenPoisons) {
  Health h;
  traps = 0;
  h.ArmTrap(&CountTrap);
  EXPECT_TRUE(h.usable()) << "armed is not yet trapped";
  EXPECT_EQ(traps, 0);
  // The entry traps; in Wasm the trap unwinds the call, leaving it open.
  ASSERT_TRUE(h.Enter());
  EXPECT_EQ(traps, 1);
  EXPECT_FALSE(h.usable());
  EXPECT_FALSE(Entry(h));
  EXPECT_EQ(traps, 1) << "the trap fires once";
  EXPECT_EQ(h.state(), Health::State::kPoisoned);
}

TEST(Health, ARefusedEntryDoesNotReopenTheInstance) {
  Health h;
  h.Poison();
  {
    Entry e(h);
    EXPECT_FALSE(e);
  }  // its destructor must not Leave() into kIdle
  EXPECT_FALSE(h.usable());
}

}  // namespace
}  // namespace webprof::boundary
