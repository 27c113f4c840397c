// The median of the gaps between sample times: the merger takes one per
// input without an end time (its last sample lasts that long) and pprof
// one per export (the period), over every gap of a thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace webprof {

// The value std::nth_element(v, v + n / 2, v + n) puts at v[n / 2]; 0 for
// no values. Reorders v. For large n and non-negative values, a histogram
// of the values' top 11 bits finds the bucket holding the median in two
// linear passes and only that bucket is selected in: gaps cluster around
// the interval, so it is a few dozen values instead of all (nth_element
// over every gap was 4 % of a 1 000-file merge). Negative values take
// nth_element over all of v.
inline int64_t MedianInPlace(int64_t* v, size_t n) {
  if (n == 0) return 0;
  const size_t k = n / 2;
  constexpr unsigned kBits = 11;
  uint64_t any = 0;
  for (size_t i = 0; i < n; ++i) any |= static_cast<uint64_t>(v[i]);
  if (n < 256 || static_cast<int64_t>(any) < 0) {
    std::nth_element(v, v + k, v + n);
    return v[k];
  }
  unsigned shift = 0;
  while ((any >> shift) >> kBits) ++shift;
  uint32_t count[1u << kBits] = {};
  for (size_t i = 0; i < n; ++i) ++count[static_cast<uint64_t>(v[i]) >> shift];
  uint64_t bucket = 0;
  size_t below = 0;
  while (below + count[bucket] <= k) below += count[bucket++];
  size_t m = 0;  // the bucket's values, moved to the front
  for (size_t i = 0; i < n; ++i)
    if (static_cast<uint64_t>(v[i]) >> shift == bucket) std::swap(v[m++], v[i]);
  std::nth_element(v, v + (k - below), v + m);
  return v[k - below];
}

}  // namespace webprof
