// base/decimal.h against the libc it replaces: the shortest round-trip
// digits equal the 15/16/17-digit snprintf + strtod search, and the fixed
// form equals snprintf's "%*.*f", on edge values and random bit patterns
// (every exponent, subnormals, ties).
#include "base/decimal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace webprof {
namespace {

// What JsonWriter::WriteDouble did with libc: the first of 15/16/17
// significant digits (from 1 for subnormals) that strtod reads back as v.
std::string LibcShortest(double v) {
  char buf[40];
  const bool subnormal = v < 2.2250738585072014e-308;
  for (int precision = subnormal ? 0 : 14; precision <= 16; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*e", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string digits;
  const char* p = buf;
  for (; *p != 'e'; ++p)
    if (*p != '.') digits.push_back(*p);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return digits + "e" + std::to_string(std::atoi(p + 1) + 1);
}

std::string Shortest(double v) {
  DecimalDigits d = ShortestDigits(v);
  return std::string(d.digits, d.count) + "e" + std::to_string(d.point);
}

std::string LibcFixed(double v, int width, int decimals) {
  char buf[400];
  std::snprintf(buf, sizeof(buf), "%*.*f", width, decimals, v);
  return buf;
}

std::string Fixed(double v, int width, int decimals) {
  std::string out;
  AppendFixed(v, width, decimals, &out);
  return out;
}

double FromBits(uint64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

const double kEdges[] = {
    5e-324,                   // the smallest subnormal
    2.2250738585072009e-308,  // the largest subnormal
    2.2250738585072014e-308,  // the smallest normal (a power of two)
    std::numeric_limits<double>::max(),
    0.1,
    0.3,
    1.0 / 3,
    2.0 / 3,
    123.456,
    1e21,
    1e-7,
    9007199254740993.0,
    0.0005,  // a tie in decimal, not in binary
    1.0005,
    2.5,  // exact ties: half to even
    0.125,
    1e23,
    5e-310,
    1234567.0 / 1024,
    4.35,
    0.000001,
    8.41e21,
    5.0e-324 * 3,
    1.7976931348623157e308 / 3,
    9.5,
    99999.9995,
    0.9999995,
};

TEST(Decimal, ShortestEqualsLibcOnEdges) {
  for (double v : kEdges) EXPECT_EQ(Shortest(v), LibcShortest(v)) << v;
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    EXPECT_EQ(Shortest(p), LibcShortest(p)) << "2^" << e;
  }
  for (int e = -323; e <= 308; ++e) {
    const double p = std::pow(10.0, e);
    if (p > 0 && std::isfinite(p)) EXPECT_EQ(Shortest(p), LibcShortest(p));
  }
}

TEST(Decimal, ShortestEqualsLibcOnRandomDoubles) {
  std::mt19937_64 rng(15);
  for (int i = 0; i < 100000; ++i) {
    // Every exponent equally, and fractions of small magnitude (probe times).
    double v = i % 2 ? FromBits(rng() & 0x7fefffffffffffffULL)
                     : static_cast<double>(rng() % 100000000) / 1000.0;
    if (!(v > 0) || !std::isfinite(v)) continue;
    ASSERT_EQ(Shortest(v), LibcShortest(v)) << std::hexfloat << v;
  }
}

TEST(Decimal, FixedEqualsPrintf) {
  const double specials[] = {0.0,
                             -0.0,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::nan(""),
                             -std::nan(""),
                             -0.0001,
                             1e300,
                             -1e22,
                             0.5,
                             1.5,
                             2.5};
  for (double v : specials) {
    EXPECT_EQ(Fixed(v, 12, 3), LibcFixed(v, 12, 3)) << v;
    EXPECT_EQ(Fixed(v, 12, 0), LibcFixed(v, 12, 0)) << v;
    EXPECT_EQ(Fixed(v, 0, 3), LibcFixed(v, 0, 3)) << v;
  }
  for (double v : kEdges) {
    EXPECT_EQ(Fixed(v, 12, 3), LibcFixed(v, 12, 3)) << v;
    EXPECT_EQ(Fixed(-v, 0, 3), LibcFixed(-v, 0, 3)) << v;
    EXPECT_EQ(Fixed(v, 12, 0), LibcFixed(v, 12, 0)) << v;
  }
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100000; ++i) {
    double v;
    switch (i % 4) {
      case 0:  // ms durations, with exact ties at the 4th decimal
        v = static_cast<double>(rng() % 200000000) / 10000.0;
        break;
      case 1:
        v = static_cast<double>(rng() % 1000000) / 1024.0;
        break;
      case 2:
        v = std::ldexp(static_cast<double>(rng() % 1000000),
                       static_cast<int>(rng() % 80) - 60);
        break;
      default:
        v = FromBits(rng() & 0x7fefffffffffffffULL);
        if (std::fabs(v) > 1e40) v = std::fmod(v, 1e40);
    }
    ASSERT_EQ(Fixed(v, 12, 3), LibcFixed(v, 12, 3)) << std::hexfloat << v;
  }
}

TEST(Decimal, UnsignedEqualsToString) {
  std::string out = "x";
  AppendUnsigned(0, &out);
  EXPECT_EQ(out, "x0");  // appends, keeping what was there
  const uint64_t edges[] = {0,
                            9,
                            10,
                            99,
                            100,
                            4294967295ULL,
                            4294967296ULL,
                            std::numeric_limits<uint64_t>::max()};
  for (uint64_t v : edges) {
    std::string s;
    AppendUnsigned(v, &s);
    EXPECT_EQ(s, std::to_string(v));
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t v = rng() >> (rng() % 64);
    std::string s;
    AppendUnsigned(v, &s);
    ASSERT_EQ(s, std::to_string(v));
  }
}

}  // namespace
}  // namespace webprof
