// Percentiles of probe durations without keeping samples.
//
// An aggregate sees every span of a hot path (millions per window), so it
// cannot keep durations. LogHistogram is a fixed array of counters over
// log-spaced buckets: each power-of-two octave [2^e, 2^(e+1)) ms is split into
// kSubBuckets linear sub-buckets, and the bucket of a value is read straight
// from the bits of the double (exponent + top mantissa bits), so Add() is a
// few integer operations, never a log() and never an allocation.
//
// Error bound: a bucket [a, a + w) has w = a' / kSubBuckets where a' = 2^e <=
// a. A percentile is reported as the bucket's midpoint, clamped to the
// observed [min, max]; its distance to any value v in the bucket is at most
// w / 2 <= v / (2 * kSubBuckets) = v / 128, i.e. a relative error of at most
// kRelativeErrorBound = 0.78125% for values in [kMinTracked, kMaxTracked).
// Exact zeros (coarse clocks give many) are counted apart and reported as 0.
// Values in (0, kMinTracked) and >= kMaxTracked share an underflow/overflow
// bucket and are reported clamped to the observed min/max.
//
// The percentile is the nearest-rank one: the smallest value with at least
// ceil(p * count) values <= it.
#pragma once

#include <array>
#include <cstdint>

namespace webprof {

class LogHistogram {
 public:
  static constexpr int kSubBits = 6;
  static constexpr uint32_t kSubBuckets = 1u << kSubBits;  // per octave
  static constexpr int kMinExp = -20;                      // 2^-20 ms ~ 1 ns
  static constexpr int kMaxExp = 24;                       // 2^24 ms ~ 4.7 h
  static constexpr uint32_t kOctaves = kMaxExp - kMinExp;
  // [0] exact zero, [1] underflow, [2 .. 2+octaves*sub) tracked, [last] over.
  static constexpr uint32_t kBuckets = 3 + kOctaves * kSubBuckets;
  static constexpr double kRelativeErrorBound = 1.0 / (2.0 * kSubBuckets);
  static constexpr double kMinTracked = 1.0 / (1 << -kMinExp);
  static constexpr double kMaxTracked = static_cast<double>(1u << kMaxExp);

  // Records `ms` (negative and NaN are counted as 0: a clock going backwards
  // must not poison the percentiles).
  void Add(double ms) {
    ++counts_[BucketOf(ms)];
    ++total_;
  }
  void Clear();

  uint64_t count() const { return total_; }
  // Nearest-rank percentile for p in (0, 1]; `min`/`max` are the exact
  // extremes the caller tracked (the estimate is clamped into them).
  // Returns 0 when empty.
  double Percentile(double p, double min, double max) const;

  static uint32_t BucketOf(double ms);
  // The value reported for a sample in tracked bucket `b` (its midpoint).
  static double BucketMidpoint(uint32_t b);

 private:
  std::array<uint32_t, kBuckets> counts_{};
  uint64_t total_ = 0;
};

}  // namespace webprof
