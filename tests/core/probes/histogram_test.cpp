// LogHistogram: bucket layout and the stated percentile error bound.
#include "probes/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace webprof {
namespace {

double ExactNearestRank(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(p * v.size()));
  if (rank < 1) rank = 1;
  return v[rank - 1];
}

TEST(LogHistogram, BoundIsAtMostOnePercent) {
  EXPECT_LE(LogHistogram::kRelativeErrorBound, 0.01);
}

TEST(LogHistogram, BucketsAreMonotonicAndContainTheirValues) {
  uint32_t prev = 0;
  for (double v = LogHistogram::kMinTracked; v < LogHistogram::kMaxTracked;
       v *= 1.003) {
    uint32_t b = LogHistogram::BucketOf(v);
    ASSERT_GE(b, prev);
    prev = b;
    double mid = LogHistogram::BucketMidpoint(b);
    ASSERT_LE(std::fabs(mid - v) / v, LogHistogram::kRelativeErrorBound) << v;
  }
  EXPECT_EQ(LogHistogram::BucketOf(0), 0u);
  EXPECT_EQ(LogHistogram::BucketOf(-3), 0u);
  EXPECT_EQ(LogHistogram::BucketOf(std::nan("")), 0u);
  EXPECT_EQ(LogHistogram::BucketOf(1e-9), 1u);
  EXPECT_EQ(LogHistogram::BucketOf(1e12), LogHistogram::kBuckets - 1);
}

// Percentiles of random distributions over nine decades stay within the
// stated relative error of the exact nearest-rank value.
TEST(LogHistogram, PercentilesWithinStatedBound) {
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> lognormal(0.0, 3.0);
  std::uniform_real_distribution<double> uniform(0.001, 50.0);
  for (int dist = 0; dist < 2; ++dist) {
    LogHistogram h;
    std::vector<double> v;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 100000; ++i) {
      double x = dist == 0 ? lognormal(rng) : uniform(rng);
      x = std::min(std::max(x, 1e-5), 1e6);
      v.push_back(x);
      h.Add(x);
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    for (double p : {0.5, 0.9, 0.99, 0.999, 1.0}) {
      double exact = ExactNearestRank(v, p);
      double est = h.Percentile(p, lo, hi);
      EXPECT_LE(std::fabs(est - exact) / exact,
                LogHistogram::kRelativeErrorBound)
          << "dist " << dist << " p " << p;
    }
  }
}

TEST(LogHistogram, ZerosAreExactAndEstimatesClampedToExtremes) {
  LogHistogram h;
  for (int i = 0; i < 60; ++i) h.Add(0);
  for (int i = 0; i < 40; ++i) h.Add(2.5);
  EXPECT_EQ(h.Percentile(0.5, 0, 2.5), 0);
  EXPECT_EQ(h.Percentile(0.6, 0, 2.5), 0);
  EXPECT_EQ(h.Percentile(0.61, 0, 2.5), 2.5);  // clamped to max, exact
  EXPECT_EQ(h.Percentile(0.99, 0, 2.5), 2.5);
  h.Clear();
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.Percentile(0.5, 0, 0), 0);
}

TEST(LogHistogram, SingleValueIsExact) {
  LogHistogram h;
  h.Add(0.123456);
  for (double p : {0.5, 0.9, 0.99}) {
    EXPECT_EQ(h.Percentile(p, 0.123456, 0.123456), 0.123456);
  }
}

// Found by tests/fuzz/probes_fuzz.cpp: with a negative min (a clock going
// backwards), the underflow bucket must not report below the zero bucket.
TEST(LogHistogram, PercentilesStayOrderedWithNegativeAndTinyValues) {
  LogHistogram h;
  h.Add(-5);    // counted as 0
  h.Add(1e-9);  // underflow
  h.Add(3);
  double p50 = h.Percentile(0.5, -5, 3), p90 = h.Percentile(0.9, -5, 3);
  EXPECT_LE(h.Percentile(0.1, -5, 3), p50);
  EXPECT_LE(p50, p90);
  EXPECT_EQ(p90, 3);
}

}  // namespace
}  // namespace webprof
