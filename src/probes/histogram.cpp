#include "probes/histogram.h"

#include <cmath>
#include <cstring>

namespace webprof {

uint32_t LogHistogram::BucketOf(double ms) {
  if (!(ms > 0)) return 0;  // zero, negative, NaN
  if (ms < kMinTracked) return 1;
  if (ms >= kMaxTracked) return kBuckets - 1;
  uint64_t bits;
  std::memcpy(&bits, &ms, sizeof bits);
  // Normal doubles only here (kMinTracked is far above the subnormals).
  int exp = static_cast<int>((bits >> 52) & 0x7FF) - 1023;
  uint32_t sub =
      static_cast<uint32_t>(bits >> (52 - kSubBits)) & (kSubBuckets - 1);
  return 2 + static_cast<uint32_t>(exp - kMinExp) * kSubBuckets + sub;
}

double LogHistogram::BucketMidpoint(uint32_t b) {
  uint32_t i = b - 2;
  int exp = static_cast<int>(i / kSubBuckets) + kMinExp;
  double base = std::ldexp(1.0, exp);
  double width = base / kSubBuckets;
  return base + width * ((i % kSubBuckets) + 0.5);
}

void LogHistogram::Clear() {
  counts_.fill(0);
  total_ = 0;
}

double LogHistogram::Percentile(double p, double min, double max) const {
  if (total_ == 0) return 0;
  // Nearest rank: the ceil(p * n)-th smallest value, 1-based.
  double rank_d = std::ceil(p * static_cast<double>(total_));
  uint64_t rank = rank_d < 1 ? 1 : static_cast<uint64_t>(rank_d);
  if (rank > total_) rank = total_;
  uint64_t seen = 0;
  uint32_t b = 0;
  for (; b < kBuckets; ++b) {
    seen += counts_[b];
    if (seen >= rank) break;
  }
  double v;
  if (b == 0) {
    v = 0;
  } else if (b == 1) {
    // Underflow, (0, kMinTracked): the exact min if it lies there; never
    // below the zero bucket's 0 so percentiles stay ordered.
    v = min > 0 ? min : kMinTracked / 2;
  } else if (b == kBuckets - 1) {
    v = max;
  } else {
    v = BucketMidpoint(b);
  }
  if (v < min) v = min;
  if (v > max) v = max;
  return v;
}

}  // namespace webprof
