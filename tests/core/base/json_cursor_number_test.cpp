// JsonCursor's one-scan numbers and raw skip: the fast paths' edges
// (exponents, negative zero, 17+ digits, far exponents, leading zeros) give
// strtod's value bit for bit or the same refusal, and the validating Skip()
// refuses exactly what reading every value refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "base/json_cursor.h"

namespace webprof {
namespace {

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(JsonCursorNumbers, EdgesAreStrtodsBitForBit) {
  const char* cases[] = {
      "-0", "-0.0", "-0e5", "0e-999999", "0.0", "1E22", "1e-22", "1e23",
      "1e-23", "9007199254740992", "9007199254740993", "-9007199254740993",
      "12345678901234567", "1234567890123456789", "12345678901234567890",
      "99999999999999999999999", "0.12345678901234567890123",
      "1.7976931348623157e308", "4.9e-324", "2.2250738585072011e-308", "1e-400",
      "-1e-400", "123.456e-2", "1.5E+3", "100000000000000000000000e-10",
      "0.000000000000000000000000000000123", "3.0000000000000000001",
      // Longer than any stack buffer: JSON bounds no length.
      "0.1000000000000000055511151231257827021181583404541015625000000000001",
      "-123456789012345678901234567890123456789012345678901234567890123456789e-"
      "50"};
  for (const char* s : cases) {
    JsonCursor c(s);
    double got = 7;
    ASSERT_TRUE(c.Number(&got) && c.AtEnd()) << s << ": " << c.error();
    EXPECT_TRUE(SameBits(got, std::strtod(s, nullptr))) << s << " " << got;
  }
  JsonCursor zero("-0");
  double z = 1;
  ASSERT_TRUE(zero.Number(&z));
  EXPECT_TRUE(std::signbit(z));
}

TEST(JsonCursorNumbers, RefusalsSayWhy) {
  const std::pair<const char*, const char*> bad[] = {
      {"1e400", "a finite number"},
      {"-1e400", "a finite number"},
      {"01", "no leading zero"},
      {"-00", "no leading zero"},
      {"00.5", "no leading zero"},
      {"1.", "a digit after '.'"},
      {"1e", "an exponent"},
      {"1e+", "an exponent"},
      {"-", "a digit"},
      {".5", "a number"},
      {"+1", "a number"}};
  for (const auto& [text, says] : bad) {
    JsonCursor c(text);
    double d;
    EXPECT_FALSE(c.Number(&d)) << text;
    EXPECT_NE(c.error().find(says), std::string::npos)
        << text << ": " << c.error();
    JsonCursor s(text);  // the skip refuses the grammar's errors too
    if (std::string(says) != "a finite number") EXPECT_FALSE(s.Skip()) << text;
  }
  for (const char* text : {"01", "[01]", "[1,02]"}) {
    JsonCursor c(text);
    int64_t i;
    std::vector<int64_t> v;
    EXPECT_FALSE(text[0] == '[' ? c.IntArray(&v) : c.Int(&i)) << text;
    EXPECT_NE(c.error().find("no leading zero"), std::string::npos)
        << c.error();
  }
}

TEST(JsonCursorNumbers, IntegersOfManyDigits) {
  JsonCursor c("[9007199254740992, 00000]");
  std::vector<int64_t> v;
  EXPECT_FALSE(c.IntArray(&v));
  JsonCursor d("90071992547409920e-1");  // 17 digits, still an integer
  int64_t i = 0;
  ASSERT_TRUE(d.Int(&i)) << d.error();
  EXPECT_EQ(i, 9007199254740992);
  JsonCursor e("12345678901234567890");  // 20 digits: past 2^53
  EXPECT_FALSE(e.Int(&i));
  EXPECT_NE(e.error().find("an integer of at most 2^53"), std::string::npos);
}

// Skip() and reading value by value accept and refuse the same texts.
TEST(JsonCursorSkip, ValidatesLikeTheTypedReads) {
  const char* good[] = {
      R"({"a":[1,-2.5e3,"x\"\u00e9\/",true,false,null,{},[]],"b":{"c":[[0]]}})",
      " [ 1 , { \"k\" : \"v\" } ] ",
      "\"\\\\\"",
      "0",
      "-0.5E-3",
      "[]",
      "{}"};
  for (const char* s : good) {
    JsonCursor c(s);
    EXPECT_TRUE(c.Skip() && c.AtEnd()) << s << ": " << c.error();
  }
  const std::pair<const char*, const char*> bad[] = {
      {"[1,,2]", "a value"},
      {"[1 2]", "',' or ']'"},
      {"{\"a\" 1}", "':'"},
      {"{\"a\":1,}", "a key string"},
      {"{1:2}", "a key string"},
      {"[tru]", "true or false"},
      {"[nul]", "null"},
      {"\"a\\x\"", "a valid escape"},
      {"\"\\u12g4\"", "4 hex digits"},
      {"\"a\nb\"", "no control character"},
      {"[\"abc", "'\"' closing the string"},
      {"{\"a\":[1,2]", "'}'"},
      {"[1.e2]", "a digit after '.'"},
      {"[-]", "a digit"}};
  for (const auto& [text, says] : bad) {
    JsonCursor c(text);
    EXPECT_FALSE(c.Skip() && c.AtEnd()) << text;
    EXPECT_NE(c.error().find(says), std::string::npos)
        << text << ": " << c.error();
  }
  std::string deep(JsonCursor::kMaxDepth + 1, '[');
  JsonCursor d(deep);
  EXPECT_FALSE(d.Skip());
  EXPECT_NE(d.error().find("less nesting"), std::string::npos);
  // Inside open containers the skip's depth counts the cursor's own.
  std::string nested = std::string(JsonCursor::kMaxDepth - 1, '[') + "[[]]";
  JsonCursor e(nested);
  for (size_t k = 0; k + 1 < JsonCursor::kMaxDepth; ++k)
    ASSERT_TRUE(e.BeginArray());
  ASSERT_TRUE(e.NextElement());
  EXPECT_FALSE(e.Skip());
}

TEST(JsonCursorMatch, TakesExactBytesOrNothing) {
  JsonCursor c(R"( {"timestamp":1.5,"stackId":3} )");
  EXPECT_FALSE(c.Match("{\"stackId\":"));
  EXPECT_TRUE(c.ok());
  ASSERT_TRUE(c.Match("{\"timestamp\":"));
  double t;
  ASSERT_TRUE(c.Number(&t));
  EXPECT_EQ(t, 1.5);
  EXPECT_TRUE(c.Match(",\"stackId\":"));
  int64_t s;
  ASSERT_TRUE(c.Int(&s));
  EXPECT_EQ(s, 3);
  EXPECT_TRUE(c.Match("}"));
  EXPECT_TRUE(c.AtEnd());
  EXPECT_FALSE(c.Match("}"));
}

}  // namespace
}  // namespace webprof
