// MsToNs rounds as llround does (half away from zero), without calling it;
// UsToNs gives MsToNs(us / 1000)'s value.
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

TEST(TimeUnits, UsToNsIsMsToNsOfMs) {
  std::mt19937_64 r(11);
  const double edges[] = {0,
                          -0.0,
                          1,
                          999,
                          1000.5,
                          -1,
                          1e12,
                          1.5e12,
                          2e12,
                          1099511627775.0,
                          1099511627776.0,
                          1099511627777.0,
                          4.5e15,
                          9007199254740991.0,
                          0.0005,
                          -1e12};
  for (double us : edges) EXPECT_EQ(UsToNs(us), MsToNs(us / 1000.0)) << us;
  for (int i = 0; i < 400000; ++i) {
    // Whole µs of every magnitude up to 2^53, and fractions.
    double us = std::floor(std::ldexp(double(r() >> 11), int(r() % 54) - 53));
    if (r() % 4 == 0) us += double(r() % 1000) / 1000.0;
    if (r() % 8 == 0) us = -us;
    ASSERT_EQ(UsToNs(us), MsToNs(us / 1000.0)) << us;
  }
}

}  // namespace
}  // namespace webprof
