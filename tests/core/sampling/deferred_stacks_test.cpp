// Deferred stacks: samples taken at capture time (buffer limit, order and
// state decided then), stacks filled in later from the texts, oldest first.
#include "sampling/deferred_stacks.h"

#include <gtest/gtest.h>

#include <string>

#include "support/v8_stack.h"

namespace webprof {
namespace {

std::string Leaf(const Session& s, size_t i) {
  StackId id = s.trace().samples()[i].stack;
  if (id.is_none()) return "<none>";
  return std::string(s.trace().frame_name(s.trace().stacks().Get(id).frame));
}

// The V8 stack text of a capture whose only frame is `name`.
std::string OneFrame(const std::string& name) {
  return V8({name + " (https://a.test/x.js:1:1)"});
}

TEST(DeferredStacks, SamplesCountAtOnceStacksArriveInOrder) {
  StackSampler sampler;
  DeferredStacks d;
  Session a(SessionOptions{1, 100, 0});
  Session* ss[] = {&a};
  Status r[1];
  EXPECT_EQ(d.Take(1, ss, 1, r), 1u);
  EXPECT_EQ(r[0], Status::kOk);
  EXPECT_EQ(d.Take(2, ss, 1, r), 1u);
  ASSERT_EQ(a.trace().samples().size(), 2u);
  EXPECT_TRUE(a.trace().samples()[0].stack.is_none());
  EXPECT_EQ(d.pending(), 2u);
  EXPECT_EQ(d.Resolve(sampler, V8({"f (https://a.test/x.js:1:1)"})),
            Status::kOk);
  EXPECT_EQ(d.Resolve(sampler, V8({"g (https://a.test/x.js:2:1)",
                                   "f (https://a.test/x.js:1:1)"})),
            Status::kOk);
  EXPECT_EQ(d.pending(), 0u);
  EXPECT_EQ(Leaf(a, 0), "f");
  EXPECT_EQ(Leaf(a, 1), "g");
  EXPECT_EQ(a.trace().samples()[0].timestamp, 1);
  // Interned in capture order: f's frame first.
  EXPECT_EQ(a.trace().frame_name(FrameId(0)), "f");
  // Nothing pending: a stray text changes nothing.
  EXPECT_EQ(d.Resolve(sampler, V8({"h (https://a.test/x.js:3:1)"})),
            Status::kOk);
  EXPECT_EQ(a.trace().frames().size(), 2u);
}

TEST(DeferredStacks, BufferFullIsDecidedWhenTheSampleIsTaken) {
  StackSampler sampler;
  DeferredStacks d;
  Session a(SessionOptions{1, 2, 0});
  Session b(SessionOptions{1, 100, 0});
  Session* ss[] = {&a, &b};
  Status r[2];
  EXPECT_EQ(d.Take(1, ss, 2, r), 2u);
  EXPECT_EQ(d.Take(2, ss, 2, r), 2u);
  EXPECT_EQ(d.Take(3, ss, 2, r), 1u);
  EXPECT_EQ(r[0], Status::kBufferFull);  // once, with nothing parsed yet
  EXPECT_EQ(r[1], Status::kOk);
  EXPECT_EQ(d.Take(4, ss, 2, r), 1u);
  EXPECT_EQ(r[0], Status::kStopped);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(d.Resolve(sampler, V8({"f (https://a.test/x.js:1:1)"})),
              Status::kOk);
  EXPECT_EQ(a.trace().samples().size(), 2u);
  EXPECT_EQ(b.trace().samples().size(), 4u);
  // The stopped session still gets the stacks of the samples it kept.
  EXPECT_EQ(Leaf(a, 1), "f");
  EXPECT_EQ(Leaf(b, 3), "f");
}

TEST(DeferredStacks, RefusedEverywhereMeansNoCapture) {
  DeferredStacks d;
  Session a(SessionOptions{1, 10, 0});
  a.Pause();
  Session* ss[] = {&a};
  Status r[1];
  EXPECT_EQ(d.Take(1, ss, 1, r), 0u);
  EXPECT_EQ(r[0], Status::kPaused);
  EXPECT_EQ(d.pending(), 0u);
}

TEST(DeferredStacks, UnclassifiedStaysPendingUntilClassifiedOrSkipped) {
  StackSampler sampler;
  sampler.RequireClassifiedScripts(true);
  DeferredStacks d;
  Session a(SessionOptions{1, 10, 0});
  Session* ss[] = {&a};
  Status r[1];
  d.Take(1, ss, 1, r);
  d.Take(2, ss, 1, r);
  std::string text = V8({"lib (https://cdn.test/lib.js:1:1)"});
  EXPECT_EQ(d.Resolve(sampler, text), Status::kUnclassifiedScript);
  EXPECT_EQ(d.pending(), 2u);
  sampler.ClassifyScript("https://cdn.test/lib.js", true);  // muted
  EXPECT_EQ(d.Resolve(sampler, text), Status::kOk);
  EXPECT_EQ(Leaf(a, 0), "<none>");
  d.Skip();
  EXPECT_EQ(d.pending(), 0u);
  EXPECT_EQ(Leaf(a, 1), "<none>");
  EXPECT_EQ(a.trace().frames().size(), 0u);
}

TEST(DeferredStacks, UnparsableTextLeavesTheSampleWithoutStack) {
  StackSampler sampler;
  DeferredStacks d;
  Session a(SessionOptions{1, 10, 0});
  Session* ss[] = {&a};
  Status r[1];
  d.Take(1, ss, 1, r);
  EXPECT_EQ(
      d.Resolve(sampler, "Error\n    at f (u:1:1)\n???", StackFormat::kV8),
      Status::kMalformedStack);
  EXPECT_EQ(d.pending(), 0u);
  EXPECT_EQ(Leaf(a, 0), "<none>");
}

TEST(DeferredStacks, AForgottenSessionIsNeverTouchedAndOrderHolds) {
  StackSampler sampler;
  DeferredStacks d;
  Session b(SessionOptions{1, 10, 0});
  {
    Session a(SessionOptions{1, 10, 0});
    Session* ss[] = {&a, &b};
    Status r[2];
    d.Take(1, ss, 1, r);  // a only
    d.Take(2, ss, 2, r);  // a and b
    d.Forget(&a);
  }
  EXPECT_EQ(d.pending(), 2u);
  // The first capture has nobody left: its text is consumed unparsed.
  EXPECT_EQ(d.Resolve(sampler, "not a stack"), Status::kOk);
  EXPECT_EQ(d.Resolve(sampler, V8({"f (https://a.test/x.js:1:1)"})),
            Status::kOk);
  ASSERT_EQ(b.trace().samples().size(), 1u);
  EXPECT_EQ(Leaf(b, 0), "f");
}

// Forgetting a session after some captures were resolved: only the pending
// entries are searched, and the other session's texts still line up.
TEST(DeferredStacks, ForgetAfterSomeCapturesWereResolved) {
  StackSampler sampler;
  DeferredStacks d;
  Session b(SessionOptions{1, 10, 0});
  {
    Session a(SessionOptions{1, 10, 0});
    Session* ss[] = {&a, &b};
    Status r[2];
    for (int i = 0; i < 3; ++i) ASSERT_EQ(d.Take(i, ss, 2, r), 2u);
    ASSERT_EQ(d.Resolve(sampler, OneFrame("f0")), Status::kOk);
    d.Forget(&a);
    EXPECT_EQ(Leaf(a, 0), "f0");
  }
  Session* only_b[] = {&b};
  Status r[1];
  ASSERT_EQ(d.Take(3, only_b, 1, r), 1u);
  EXPECT_EQ(d.pending(), 3u);
  for (const char* name : {"f1", "f2", "f3"})
    ASSERT_EQ(d.Resolve(sampler, OneFrame(name)), Status::kOk);
  EXPECT_EQ(d.pending(), 0u);
  ASSERT_EQ(b.trace().samples().size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(Leaf(b, i), "f" + std::to_string(i)) << i;
}

// The ticker's ticks since the last sample: n samples, one capture. Each
// sample is kept or refused on its own (the buffer fills mid-way), each
// session gets those its mask selects, one text gives all of them a stack.
TEST(DeferredStacks, ManySamplesOfOneCaptureFillTheBufferMidWay) {
  StackSampler sampler;
  DeferredStacks d;
  Session a(SessionOptions{1, 3, 0});    // every tick, room for 3
  Session b(SessionOptions{2, 100, 0});  // every other tick
  SessionSet set;
  set.Attach(&a);
  set.Attach(&b);
  const DueSample due[] = {
      {1, 0b11}, {2, 0b01}, {3, 0b11}, {4, 0b01}, {5, 0b11}};
  EXPECT_EQ(d.TakeMany(due, 5, set), 6u);            // a: 1 2 3, b: 1 3 5
  EXPECT_EQ(set.results()[0], Status::kBufferFull);  // at 4, reported once
  EXPECT_EQ(set.results()[1], Status::kOk);
  EXPECT_EQ(a.state(), SessionState::kStopped);
  EXPECT_EQ(d.pending(), 1u);
  EXPECT_EQ(d.Resolve(sampler, V8({"g (https://a.test/x.js:2:1)",
                                   "f (https://a.test/x.js:1:1)"})),
            Status::kOk);
  EXPECT_EQ(d.pending(), 0u);
  ASSERT_EQ(a.trace().samples().size(), 3u);
  ASSERT_EQ(b.trace().samples().size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(a.trace().samples()[i].timestamp, double(i + 1));
    EXPECT_EQ(b.trace().samples()[i].timestamp, double(2 * i + 1));
    EXPECT_EQ(Leaf(a, i), "g");
    EXPECT_EQ(Leaf(b, i), "g");
  }
  EXPECT_EQ(a.trace().samples()[0].stack, a.trace().samples()[2].stack);
  // The next batch: a is stopped (kStopped, not a second kBufferFull).
  const DueSample later[] = {{6, 0b11}};
  EXPECT_EQ(d.TakeMany(later, 1, set), 1u);
  EXPECT_EQ(set.results()[0], Status::kStopped);
  EXPECT_EQ(set.results()[1], Status::kOk);
}

TEST(DeferredStacks, ManySamplesKeepTheCapturesInOrder) {
  StackSampler sampler;
  DeferredStacks d;
  Session a(SessionOptions{1, 100, 0});
  SessionSet set;
  set.Attach(&a);
  Session* ss[] = {&a};
  Status r[1];
  d.Take(1, ss, 1, r);
  const DueSample due[] = {{2, 1}, {3, 1}, {3, 1}};
  EXPECT_EQ(d.TakeMany(due, 3, set), 3u);
  // Out of order: refused, the rest kept; nothing due: no capture.
  const DueSample back[] = {{2.5, 1}, {4, 1}};
  EXPECT_EQ(d.TakeMany(back, 2, set), 1u);
  EXPECT_EQ(set.results()[0], Status::kOk);
  const DueSample none[] = {{5, 0}, {6, -1}};
  EXPECT_EQ(d.TakeMany(none, 2, set), 0u);
  EXPECT_EQ(d.pending(), 3u);
  d.Resolve(sampler, V8({"f (https://a.test/x.js:1:1)"}));
  d.Resolve(sampler, V8({"g (https://a.test/x.js:2:1)"}));
  d.Resolve(sampler, V8({"h (https://a.test/x.js:3:1)"}));
  ASSERT_EQ(a.trace().samples().size(), 5u);
  const char* leaves[] = {"f", "g", "g", "g", "h"};
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(Leaf(a, i), leaves[i]) << i;
  EXPECT_EQ(a.trace().samples()[4].timestamp, 4);
}

// Captures taken while older ones are still pending, resolved a few at a
// time, the oldest half of the queue reclaimed on the way: every text still
// reaches its own sample, in capture order.
TEST(DeferredStacks, TextsKeepTheirSamplesWhileTheQueueIsReclaimed) {
  StackSampler sampler;
  DeferredStacks d;
  Session a(SessionOptions{1, 1000, 0});
  Session* ss[] = {&a};
  Status r[1];
  auto name = [](int i) { return "f" + std::to_string(i); };
  int taken = 0, resolved = 0;
  for (int round = 0; round < 40; ++round) {
    for (int k = 0; k < 3; ++k) ASSERT_EQ(d.Take(taken++, ss, 1, r), 1u);
    for (int k = 0; k < (round % 2 ? 4 : 1) && resolved < taken; ++k)
      ASSERT_EQ(d.Resolve(sampler, OneFrame(name(resolved++))), Status::kOk);
    ASSERT_EQ(d.pending(), static_cast<size_t>(taken - resolved));
  }
  while (resolved < taken)
    ASSERT_EQ(d.Resolve(sampler, OneFrame(name(resolved++))), Status::kOk);
  EXPECT_EQ(d.pending(), 0u);
  for (int i = 0; i < taken; ++i) EXPECT_EQ(Leaf(a, i), name(i)) << i;
}

TEST(Session, SetSampleStackValidates) {
  Session a(SessionOptions{1, 10, 0});
  ASSERT_EQ(a.TakeSample(1, StackId::None()), Status::kOk);
  EXPECT_EQ(a.SetSampleStack(1, StackId::None()), Status::kInvalidArgument);
  EXPECT_EQ(a.SetSampleStack(0, StackId(7)), Status::kUnknownStack);
  EXPECT_EQ(a.SetSampleStack(0, StackId::None()), Status::kOk);
}

}  // namespace
}  // namespace webprof
