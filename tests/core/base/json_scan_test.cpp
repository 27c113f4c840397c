// The eight-bytes-at-a-time scans give what the byte-by-byte paths give:
// digit runs and their values, string content runs, plain numbers (the
// value JsonCursor::Number() reads), on random bytes and at every length.
#include "base/json_scan.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "base/json_cursor.h"

namespace webprof {
namespace {

TEST(JsonScan, DigitRunsAndStringRunsAsByteLoopsSeeThem) {
  std::mt19937 r(7);
  const std::string other = "\"\\ ,.]}-eE\x01\x1f\x7f\xfa\xff\x80/:";
  for (int it = 0; it < 200000; ++it) {
    char b[24];
    for (char& c : b)
      c = r() % 3 ? char('0' + r() % 10) : other[r() % other.size()];
    unsigned n = 0;
    uint64_t want = 0;
    while (n < 16 && b[n] >= '0' && b[n] <= '9')
      want = want * 10 + (b[n++] - '0');
    uint64_t got = 99;
    ASSERT_EQ(json_scan::Digits16(b, &got), n);
    ASSERT_EQ(got, want);
    unsigned s = 0;
    while (s < 8 && b[s] != '"' && b[s] != '\\' &&
           static_cast<unsigned char>(b[s]) >= 0x20)
      ++s;
    ASSERT_EQ(json_scan::StringRun8(b), s);
  }
}

TEST(JsonScan, PlainDecimalsAreTheCursorsNumbers) {
  std::mt19937_64 r(11);
  for (int it = 0; it < 100000; ++it) {
    std::string s = std::to_string(r() % (uint64_t{1} << (r() % 50)));
    if (r() % 2) s += "." + std::to_string(r() % 100000000);
    if (r() % 9 == 0) s = "0" + s;
    if (r() % 9 == 0) s += "e1";
    if (r() % 9 == 0) s = "-" + s;
    const std::string text = s + "}" + std::string(40, ' ');
    double fast = -1;
    const size_t n = json_scan::PlainDecimal(text.data(), &fast);
    JsonCursor c(text);
    double slow = -2;
    const bool ok = c.Number(&slow);
    if (n) {
      ASSERT_EQ(n, s.size()) << s;
      ASSERT_TRUE(ok) << s;
      ASSERT_EQ(std::memcmp(&fast, &slow, sizeof fast), 0) << s;
    } else {
      // Refused: a sign, an exponent, a leading zero or over 15 digits.
      ASSERT_TRUE(s[0] == '-' || s.find('e') != std::string::npos ||
                  (s[0] == '0' && s.size() > 1 && s[1] != '.') ||
                  s.size() - (s.find('.') != std::string::npos) > 15)
          << s;
    }
  }
}

TEST(JsonScan, SameBytesAtEveryLength) {
  const std::string a = "{\"timestamp\":,\"stackId\":{\"callFrame\":";
  for (size_t n = 0; n <= a.size(); ++n) {
    std::string b = a;
    EXPECT_TRUE(json_scan::SameBytes(a.data(), b.data(), n));
    for (size_t k = 0; k < n; ++k) {
      b = a;
      b[k] ^= 1;
      EXPECT_FALSE(json_scan::SameBytes(a.data(), b.data(), n))
          << n << " " << k;
    }
  }
}

}  // namespace
}  // namespace webprof
