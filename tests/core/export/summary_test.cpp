// The summary's arithmetic: self <= total for every row, a sample counted
// once per function in totals under recursion and mutual recursion, rows
// merging a function's frames at several columns.
#include "export/summary.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace webprof {
namespace {

class SummaryTest : public ::testing::Test {
 protected:
  FrameId F(const char* name, uint32_t line = 1, uint32_t col = 1) {
    return trace_.InternFrame(RawFrame{name, "https://a/app.js", line, col});
  }
  // Appends `n` samples of the stack `outermost_first`, 1 ms apart.
  void Sample(std::vector<FrameId> outermost_first, int n = 1) {
    StackId s = outermost_first.empty()
                    ? StackId::None()
                    : trace_.InternStack(outermost_first.data(),
                                         outermost_first.size());
    for (int i = 0; i < n; ++i)
      trace_.mutable_samples().Append({double(time_++), s});
  }
  const SummaryRow& Row(const TraceSummary& s, const char* name) {
    for (const SummaryRow& r : s.rows)
      if (trace_.frame_name(r.frame) == name) return r;
    ADD_FAILURE() << "no row " << name;
    return s.rows.front();
  }
  static void ExpectSane(const TraceSummary& s) {
    uint32_t selfs = 0;
    for (const SummaryRow& r : s.rows) {
      EXPECT_LE(r.self, r.total);
      EXPECT_LE(r.total, s.with_stack);
      selfs += r.self;
    }
    EXPECT_LE(selfs, s.with_stack);
  }

  ProfilerTrace trace_;
  int time_ = 0;
};

TEST_F(SummaryTest, DirectRecursionCountsEachSampleOnce) {
  FrameId main = F("main"), fib = F("fib", 5);
  Sample({main, fib, fib, fib, fib}, 6);
  Sample({main, fib}, 2);
  Sample({main}, 2);
  Sample({}, 3);  // idle
  TraceSummary s = SummarizeTrace(trace_, 10);
  ExpectSane(s);
  EXPECT_EQ(s.samples, 13u);
  EXPECT_EQ(s.with_stack, 10u);
  EXPECT_DOUBLE_EQ(s.duration_ms, 12);
  EXPECT_EQ(Row(s, "fib").self, 8u);
  EXPECT_EQ(Row(s, "fib").total, 8u);
  EXPECT_EQ(Row(s, "main").self, 2u);
  EXPECT_EQ(Row(s, "main").total, 10u);
  EXPECT_EQ(trace_.frame_name(s.rows[0].frame), "fib");
}

TEST_F(SummaryTest, MutualRecursionCountsEachSampleOncePerFunction) {
  FrameId main = F("main"), even = F("isEven", 2), odd = F("isOdd", 7);
  Sample({main, even, odd, even, odd, even}, 4);
  Sample({main, even, odd, even, odd}, 3);
  Sample({main, odd}, 1);
  TraceSummary s = SummarizeTrace(trace_, 10);
  ExpectSane(s);
  EXPECT_EQ(Row(s, "isEven").self, 4u);
  EXPECT_EQ(Row(s, "isEven").total, 7u);
  EXPECT_EQ(Row(s, "isOdd").self, 4u);
  EXPECT_EQ(Row(s, "isOdd").total, 8u);
  EXPECT_EQ(Row(s, "main").total, 8u);
}

// The old summary took the max of per-frame totals for a row but added
// the selfs: one function sampled at two columns showed self > total.
TEST_F(SummaryTest, FramesOfOneFunctionAtSeveralColumnsAreOneRow) {
  FrameId main = F("main"), a = F("(anonymous)", 13, 100),
          b = F("(anonymous)", 13, 2000);
  Sample({main, a}, 3);
  Sample({main, b}, 2);
  Sample({main, a, b}, 4);  // the row's frames nest: still once per sample
  TraceSummary s = SummarizeTrace(trace_, 10);
  ExpectSane(s);
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(Row(s, "(anonymous)").self, 9u);
  EXPECT_EQ(Row(s, "(anonymous)").total, 9u);
}

TEST_F(SummaryTest, SortsBySelfThenTotalAndKeepsTop) {
  FrameId main = F("main"), x = F("x", 2), y = F("y", 3), z = F("z", 4);
  Sample({main, x}, 1);
  Sample({main, y, z}, 5);
  Sample({main, y}, 5);
  TraceSummary s = SummarizeTrace(trace_, 2);
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(trace_.frame_name(s.rows[0].frame), "y");  // self 5, total 10
  EXPECT_EQ(trace_.frame_name(s.rows[1].frame), "z");  // self 5, total 5
  EXPECT_TRUE(SummarizeTrace(trace_, 0).rows.empty());
}

TEST_F(SummaryTest, EmptyTrace) {
  TraceSummary s = SummarizeTrace(trace_, 10);
  EXPECT_EQ(s.samples, 0u);
  EXPECT_EQ(s.with_stack, 0u);
  EXPECT_TRUE(s.rows.empty());
}

// Random stacks over a few functions: the invariants hold and each total
// equals a brute-force count.
TEST_F(SummaryTest, InvariantsOnRandomStacks) {
  std::vector<FrameId> fns;
  for (int i = 0; i < 6; ++i)
    fns.push_back(F(("f" + std::to_string(i % 4)).c_str(), 1 + i % 4, 1 + i));
  uint32_t seed = 12345;
  auto next = [&] { return (seed = seed * 1103515245u + 12345u) >> 16; };
  std::vector<std::vector<FrameId>> all;
  for (int i = 0; i < 300; ++i) {
    std::vector<FrameId> st(1 + next() % 8);
    for (FrameId& f : st) f = fns[next() % fns.size()];
    Sample(st);
    all.push_back(st);
  }
  TraceSummary s = SummarizeTrace(trace_, 100);
  ExpectSane(s);
  for (const SummaryRow& r : s.rows) {
    std::string name(trace_.frame_name(r.frame));
    uint32_t total = 0;
    for (const auto& st : all) {
      bool in = false;
      for (FrameId f : st) in = in || trace_.frame_name(f) == name;
      total += in;
    }
    EXPECT_EQ(r.total, total) << name;
  }
}

}  // namespace
}  // namespace webprof
