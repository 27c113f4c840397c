// MedianInPlace gives nth_element's value at n / 2 for any input: spread
// gaps, clustered gaps, all equal, huge values, negatives, small n.
#include "base/median.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace webprof {
namespace {

int64_t Reference(std::vector<int64_t> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

void ExpectMedian(const std::vector<int64_t>& v) {
  std::vector<int64_t> w = v;
  EXPECT_EQ(MedianInPlace(w.data(), w.size()), Reference(v)) << v.size();
  std::sort(w.begin(), w.end());  // still a permutation of v
  std::vector<int64_t> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(w, sorted);
}

TEST(Median, EmptyIsZero) { EXPECT_EQ(MedianInPlace(nullptr, 0), 0); }

TEST(Median, AgreesWithNthElement) {
  std::mt19937_64 r(11);
  for (size_t n : {1, 2, 3, 255, 256, 257, 1000, 10001, 65536}) {
    std::vector<int64_t> clustered, spread, equal(n, 1000000), huge, mixed;
    for (size_t i = 0; i < n; ++i) {
      clustered.push_back(900000 + int64_t(r() % 200000));
      spread.push_back(int64_t(r() >> 1));
      huge.push_back(int64_t(r() % 3) + (int64_t{1} << 62));
      mixed.push_back(int64_t(r() % 2001) - 1000);
    }
    for (const auto* v : {&clustered, &spread, &equal, &huge, &mixed})
      ExpectMedian(*v);
  }
}

TEST(Median, ManyTiesAroundTheMedian) {
  std::vector<int64_t> v;
  for (int i = 0; i < 5000; ++i) v.push_back(i % 3 == 0 ? 0 : 1000);
  for (int i = 0; i < 5000; ++i) v.push_back(1000 + i % 2);
  ExpectMedian(v);
}

}  // namespace
}  // namespace webprof
