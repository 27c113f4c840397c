// The W3C interning rules and the session's buffer limit.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "trace/session.h"

namespace webprof {
namespace {

RawFrame F(const char* name, const char* res = "", uint32_t line = 0,
           uint32_t col = 0) {
  return RawFrame{name, res, line, col};
}

TEST(Interning, SameFrameTwiceGivesSameId) {
  ProfilerTrace t;
  FrameId a = t.InternFrame(F("f", "https://a/x.js", 3, 7));
  FrameId b = t.InternFrame(F("f", "https://a/x.js", 3, 7));
  EXPECT_EQ(a, b);
  EXPECT_EQ(t.frames().size(), 1u);
  EXPECT_EQ(t.resources().size(), 1u);
}

TEST(Interning, FramesDifferingInOneComponentDiffer) {
  ProfilerTrace t;
  FrameId base = t.InternFrame(F("f", "https://a/x.js", 3, 7));
  EXPECT_NE(base, t.InternFrame(F("g", "https://a/x.js", 3, 7)));
  EXPECT_NE(base, t.InternFrame(F("f", "https://a/y.js", 3, 7)));
  EXPECT_NE(base, t.InternFrame(F("f", "", 3, 7)));
  EXPECT_NE(base, t.InternFrame(F("f", "https://a/x.js", 4, 7)));
  EXPECT_NE(base, t.InternFrame(F("f", "https://a/x.js", 3, 8)));
  EXPECT_NE(base, t.InternFrame(F("f", "https://a/x.js", 0, 0)));
  EXPECT_EQ(t.frames().size(), 7u);
}

TEST(Interning, IdsAreDenseInInsertionOrder) {
  ProfilerTrace t;
  for (uint32_t i = 0; i < 1000; ++i) {
    std::string name = "fn" + std::to_string(i);
    EXPECT_EQ(t.InternFrame(F(name.c_str(), "u", i + 1, 1)).value, i);
  }
}

TEST(Interning, StacksSharePrefixesThroughParentId) {
  ProfilerTrace t;
  FrameId a = t.InternFrame(F("a")), b = t.InternFrame(F("b")),
          c = t.InternFrame(F("c"));
  FrameId s1[] = {a, b};
  FrameId s2[] = {a, b, c};
  FrameId s3[] = {a, c};
  StackId id1 = t.InternStack(s1, 2);
  StackId id2 = t.InternStack(s2, 3);
  StackId id3 = t.InternStack(s3, 2);
  EXPECT_EQ(t.stacks().size(), 4u);  // a, a>b, a>b>c, a>c
  EXPECT_EQ(t.stacks().Get(id2).parent, id1);
  EXPECT_EQ(t.stacks().Get(id2).frame, c);
  StackId root = t.stacks().Get(id1).parent;
  EXPECT_EQ(t.stacks().Get(root).frame, a);
  EXPECT_TRUE(t.stacks().Get(root).parent.is_none());
  EXPECT_EQ(t.stacks().Get(id3).parent, root);
  EXPECT_EQ(t.InternStack(s2, 3), id2);
}

TEST(Interning, ParentsAlwaysPrecedeChildren) {
  ProfilerTrace t;
  FrameId fs[8];
  for (int i = 0; i < 8; ++i)
    fs[i] = t.InternFrame(F(std::string(1, 'a' + i).c_str()));
  for (int n = 8; n >= 1; --n) t.InternStack(fs, n);
  for (uint32_t i = 0; i < t.stacks().size(); ++i) {
    StackId p = t.stacks().Get(StackId(i)).parent;
    if (!p.is_none()) EXPECT_LT(p.value, i);
  }
}

TEST(Interning, FrameThatMapsToNothingIsSkipped) {
  ProfilerTrace t;
  FrameId a = t.InternFrame(F("a")), b = t.InternFrame(F("b"));
  FrameId with_hole[] = {a, FrameId::None(), b};
  FrameId without[] = {a, b};
  EXPECT_EQ(t.InternStack(with_hole, 3), t.InternStack(without, 2));
  FrameId only_hole[] = {FrameId::None()};
  EXPECT_TRUE(t.InternStack(only_hole, 1).is_none());
  EXPECT_TRUE(t.InternStack(nullptr, 0).is_none());
}

TEST(Session, BufferTakesExactlyMaxBufferSizeThenRefuses) {
  Session s({10, 3, 0});
  EXPECT_EQ(s.TakeSample(1, StackId::None()), Status::kOk);
  EXPECT_EQ(s.TakeSample(2, StackId::None()), Status::kOk);
  EXPECT_EQ(s.TakeSample(3, StackId::None()), Status::kOk);
  EXPECT_EQ(s.state(), SessionState::kStarted);
  EXPECT_EQ(s.TakeSample(4, StackId::None()), Status::kBufferFull);
  EXPECT_EQ(s.state(), SessionState::kStopped);
  EXPECT_EQ(s.TakeSample(5, StackId::None()), Status::kStopped);
  EXPECT_EQ(s.trace().samples().size(), 3u);
}

TEST(Session, ZeroBufferRefusesFirstSample) {
  Session s({10, 0, 0});
  EXPECT_EQ(s.TakeSample(1, StackId::None()), Status::kBufferFull);
  EXPECT_EQ(s.trace().samples().size(), 0u);
}

TEST(Session, BadTimestampsAreRejectedWithoutLosingData) {
  Session s({1, 100, 0});
  ASSERT_EQ(s.TakeSample(5, StackId::None()), Status::kOk);
  EXPECT_EQ(s.TakeSample(std::nan(""), StackId::None()),
            Status::kInvalidTimestamp);
  EXPECT_EQ(s.TakeSample(-1, StackId::None()), Status::kInvalidTimestamp);
  EXPECT_EQ(
      s.TakeSample(std::numeric_limits<double>::infinity(), StackId::None()),
      Status::kInvalidTimestamp);
  EXPECT_EQ(s.TakeSample(4, StackId::None()), Status::kTimestampOutOfOrder);
  EXPECT_EQ(s.TakeSample(6, StackId(42)), Status::kUnknownStack);
  EXPECT_EQ(s.trace().samples().size(), 1u);
  EXPECT_EQ(s.TakeSample(6, StackId::None()), Status::kOk);
  EXPECT_EQ(s.trace().samples()[1].timestamp, 6);
}

TEST(Session, UnknownIdsAreRejected) {
  ProfilerTrace t;
  StackId out;
  FrameId fout;
  EXPECT_EQ(t.InternStack(FrameId(0), StackId::None(), &out),
            Status::kUnknownFrame);
  FrameId a = t.InternFrame(F("a"));
  EXPECT_EQ(t.InternStack(a, StackId(3), &out), Status::kUnknownParent);
  EXPECT_EQ(t.InternFrame(StringId(0), ResourceId(9), 1, 1, &fout),
            Status::kUnknownResource);
  EXPECT_EQ(t.InternFrame(StringId(77), ResourceId::None(), 1, 1, &fout),
            Status::kInvalidArgument);
  EXPECT_EQ(t.frames().size(), 1u);
}

TEST(Session, PausedSessionKeepsNoSamples) {
  Session s({1, 10, 0});
  s.Pause();
  EXPECT_EQ(s.TakeSample(1, StackId::None()), Status::kPaused);
  s.Resume();
  EXPECT_EQ(s.TakeSample(2, StackId::None()), Status::kOk);
  s.Stop();
  EXPECT_EQ(s.TakeSample(3, StackId::None()), Status::kStopped);
  EXPECT_EQ(s.trace().samples().size(), 1u);
}

TEST(SampleBuffer, SpansAreContiguousAndTruncateUndoesThem) {
  SampleBuffer b;
  b.Append(Sample{1, StackId(7)});
  // A span never crosses a chunk: the first ends where chunk 0 ends.
  SampleBuffer::Span a = b.AppendSpan(SampleBuffer::kChunkSamples + 10);
  ASSERT_EQ(a.size, SampleBuffer::kChunkSamples - 1);
  for (size_t i = 0; i < a.size; ++i) a.data[i] = Sample{2.0 + i, StackId(1)};
  SampleBuffer::Span c = b.AppendSpan(10);
  ASSERT_EQ(c.size, 10u);
  EXPECT_EQ(b.size(), SampleBuffer::kChunkSamples + 10);
  for (size_t i = 0; i < c.size; ++i) c.data[i] = Sample{9000.0 + i};
  EXPECT_EQ(b[SampleBuffer::kChunkSamples].timestamp, 9000.0);
  EXPECT_EQ(b.AppendSpan(0).size, 0u);

  // Undo back into the first chunk, then append again: indices stay right.
  b.Truncate(5);
  EXPECT_EQ(b.size(), 5u);
  EXPECT_EQ(b[4].timestamp, 5.0);
  b.Append(Sample{42});
  EXPECT_EQ(b[5].timestamp, 42.0);
  b.Truncate(SampleBuffer::kChunkSamples);  // no-op: beyond the size
  EXPECT_EQ(b.size(), 6u);
  b.Truncate(0);
  EXPECT_TRUE(b.empty());
  b.Append(Sample{3});
  EXPECT_EQ(b.back().timestamp, 3.0);
}

TEST(Utf8, LoneSurrogatesAndInvalidBytesBecomeReplacementChar) {
  ProfilerTrace t;
  // "a" + WTF-8 lone high surrogate U+D800 + "b"
  FrameId f =
      t.InternFrame(F("a\xED\xA0\x80"
                      "b"));
  EXPECT_EQ(t.frame_name(f),
            "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
            "b");
  FrameId g = t.InternFrame(F("x\xFFy"));
  EXPECT_EQ(t.frame_name(g), "x\xEF\xBF\xBDy");
  FrameId h = t.InternFrame(F("\xF0\x9F\x98\x80"));  // valid non-BMP
  EXPECT_EQ(t.frame_name(h), "\xF0\x9F\x98\x80");
  FrameId trunc = t.InternFrame(F("\xE2\x82"));
  EXPECT_EQ(t.frame_name(trunc), "\xEF\xBF\xBD");
}

TEST(Caps, TableCapsCountDropsInsteadOfGrowing) {
  FrameTable frames(2);
  EXPECT_FALSE(frames.Intern(Frame{StringId(0), {}, 1, 1}).is_none());
  EXPECT_FALSE(frames.Intern(Frame{StringId(1), {}, 1, 1}).is_none());
  EXPECT_TRUE(frames.Intern(Frame{StringId(2), {}, 1, 1}).is_none());
  EXPECT_EQ(frames.dropped(), 1u);
  StackTable stacks(1);
  StackId s0 = stacks.Intern(FrameId(0), StackId::None());
  EXPECT_EQ(stacks.Intern(FrameId(1), s0), s0);  // truncated at the prefix
  EXPECT_EQ(stacks.dropped(), 1u);
}

}  // namespace
}  // namespace webprof
