// The pull reader's fast paths give exactly what the general ones give:
// numbers (Clinger's fast path) against strtod, integer arrays against
// element-by-element reading, zero-copy keys.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "base/json_cursor.h"

namespace webprof {
namespace {

double Read(const std::string& text) {
  JsonCursor c(text);
  double v = -12345;
  EXPECT_TRUE(c.Number(&v)) << text << ": " << c.error();
  return v;
}

TEST(JsonCursor, NumbersAreStrtodsBitForBit) {
  std::mt19937_64 r(42);
  std::vector<std::string> cases = {"0",
                                    "-0",
                                    "0.5",
                                    "0.05",
                                    "1e22",
                                    "1e23",
                                    "1.5e-7",
                                    "123456789012345",
                                    "1234567890123456789",
                                    "4.35",
                                    "0.1",
                                    "2.2250738585072014e-308",
                                    "1e-400",
                                    "9007199254740993",
                                    "1E+2",
                                    "12.500",
                                    "0.000000000000000000000001"};
  for (int i = 0; i < 20000; ++i) {
    std::string s = (r() % 4 == 0 ? "-" : "") + std::to_string(r() % 100000000);
    if (r() % 2) s += "." + std::to_string(r() % 1000000000);
    if (r() % 5 == 0) s += "e" + std::to_string(int(r() % 60) - 30);
    cases.push_back(s);
  }
  for (const std::string& s : cases) {
    double want = std::strtod(s.c_str(), nullptr);
    if (!std::isfinite(want)) continue;
    double got = Read(s);
    EXPECT_EQ(std::memcmp(&got, &want, sizeof got), 0) << s;
  }
}

TEST(JsonCursor, IntArraysFastAndSlow) {
  JsonCursor c(" [ 1,-2 ,\n30, 1234567890123456 , 0, 9007199254740992 ] ");
  std::vector<int64_t> v{7};
  ASSERT_TRUE(c.IntArray(&v)) << c.error();
  EXPECT_EQ(v, (std::vector<int64_t>{7, 1, -2, 30, 1234567890123456, 0,
                                     9007199254740992}));
  EXPECT_TRUE(c.AtEnd());
  for (const char* bad :
       {"[1.5]", "[1,]", "[1 2]", "[-]", "[1", "[", "[1e3x]"}) {
    JsonCursor b(bad);
    std::vector<int64_t> out;
    EXPECT_FALSE(b.IntArray(&out)) << bad;
    EXPECT_FALSE(b.error().empty()) << bad;
  }
  JsonCursor e("{\"a\":[],\"b\":[1e3]}");
  std::string_view key;
  std::string scratch;
  std::vector<int64_t> out;
  ASSERT_TRUE(e.BeginObject());
  ASSERT_TRUE(e.NextKey(&key, &scratch));
  EXPECT_EQ(key, "a");
  ASSERT_TRUE(e.IntArray(&out));
  ASSERT_TRUE(e.NextKey(&key, &scratch));
  ASSERT_TRUE(e.IntArray(&out));  // 1e3 is an integer: the general path
  EXPECT_EQ(out, (std::vector<int64_t>{1000}));
  EXPECT_FALSE(e.NextKey(&key, &scratch));
  EXPECT_TRUE(e.ok() && e.AtEnd());
}

// Long arrays go through the word-at-a-time loop (away from the text's
// end), across its 128-element blocks, and leave it for every other form
// of an element mid-array; the values and errors are the general path's.
TEST(JsonCursor, LongIntArraysLeaveTheWordLoopForAnyOtherForm) {
  std::string text = "[";
  std::vector<int64_t> want;
  for (int i = 0; i < 700; ++i) {
    int64_t v = (int64_t{i} * 7919) % 10000000;  // 1 to 7 digits
    std::string item = std::to_string(v);
    if (i % 97 == 5) v = -v, item = std::to_string(v);
    if (i % 131 == 7) v = 12345678901234, item = "12345678901234";
    if (i % 151 == 9) item = " " + item + " ";
    if (i % 173 == 11) v = 0, item = "0";
    if (i % 199 == 13) v = 4000, item = "4e3";
    want.push_back(v);
    text += (i ? "," : "") + item;
  }
  text += "]" + std::string(80, ' ');
  JsonCursor c(text);
  std::vector<int64_t> got{-1};
  ASSERT_TRUE(c.IntArray(&got)) << c.error();
  want.insert(want.begin(), -1);
  EXPECT_EQ(got, want);
  EXPECT_TRUE(c.AtEnd());
  // Every element as wide (1 to 8 digits, single zeros among the 1-digit
  // ones): the loop's room in a block is counted in bytes, 2 at least per
  // element.
  for (int width = 1; width <= 8; ++width) {
    std::string t = "[";
    std::vector<int64_t> w;
    for (int i = 0; i < 600; ++i) {
      int64_t v = (int64_t{i} * 7919 + 1) % 100000000;
      std::string item = std::to_string(v);
      item = item.substr(0, width);
      while (static_cast<int>(item.size()) < width) item += "7";
      if (item[0] == '0') item[0] = '9';
      if (width == 1 && i % 5 == 0) item = "0";
      w.push_back(std::stoll(item));
      t += (i ? "," : "") + item;
    }
    t += "]" + std::string(80, ' ');
    JsonCursor e(t);
    std::vector<int64_t> out;
    ASSERT_TRUE(e.IntArray(&out)) << width << ": " << e.error();
    EXPECT_EQ(out, w) << width;
    EXPECT_TRUE(e.AtEnd());
  }
  for (const char* bad : {"012", "1.5", "1,,2", "1]", "1 2", "1x", "00"}) {
    std::string t = "[";
    for (int i = 0; i < 100; ++i) t += "12,";
    t += std::string(bad) + "]" + std::string(80, ' ');
    JsonCursor b(t);
    std::vector<int64_t> out;
    EXPECT_FALSE(b.IntArray(&out) && b.AtEnd()) << bad;
  }
}

TEST(JsonCursor, ZeroCopyKeysAndEscapedOnes) {
  JsonCursor c(R"({"plain":1,"esc\u0061ped":2})");
  std::string_view key;
  std::string scratch;
  ASSERT_TRUE(c.BeginObject());
  ASSERT_TRUE(c.NextKey(&key, &scratch));
  EXPECT_EQ(key, "plain");
  EXPECT_NE(key.data(), scratch.data());
  ASSERT_TRUE(c.Skip());
  ASSERT_TRUE(c.NextKey(&key, &scratch));
  EXPECT_EQ(key, "escaped");
}

}  // namespace
}  // namespace webprof
