// MsToNs rounds as llround does (half away from zero), without calling it.
#include "base/time_units.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace webprof {
namespace {

TEST(TimeUnits, MsToNsIsLlround) {
  std::mt19937_64 r(7);
  const double edges[] = {0,
                          -0.0,
                          0.5e-6,
                          -0.5e-6,
                          1.5e-6,
                          -2.5e-6,
                          0.49999999999999994e-6,
                          1e3,
                          123.4565,
                          4503599627.3704965,
                          9007199254.740993,
                          1e12,
                          -1e12,
                          2.3e12};
  for (double ms : edges) EXPECT_EQ(MsToNs(ms), std::llround(ms * 1e6)) << ms;
  for (int i = 0; i < 200000; ++i) {
    double ms = std::ldexp(double(r() >> 11), int(r() % 80) - 70);
    if (r() % 2) ms = -ms;
    if (std::fabs(ms * 1e6) >= kTimeLimit) continue;
    ASSERT_EQ(MsToNs(ms), std::llround(ms * 1e6)) << ms;
    const double half = std::floor(ms * 1e6) + 0.5;  // exact halves
    if (std::fabs(half) < 1e15)
      ASSERT_EQ(MsToNs(half / 1e6), std::llround(half / 1e6 * 1e6));
  }
  EXPECT_EQ(MsToNs(1e300), int64_t{1} << 61);
  EXPECT_EQ(MsToNs(NAN), 0);
}

}  // namespace
}  // namespace webprof
