// JsonCursor's integers are read exactly from their text (no strtod); a
// skipped number is consumed whatever its size.
#include "base/json_cursor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace webprof {
namespace {

bool ReadInt(const std::string& text, int64_t* out, std::string* error) {
  JsonCursor c(text);
  bool ok = c.Int(out) && c.AtEnd();
  *error = c.error();
  return ok;
}

TEST(JsonCursor, IntegersExactly) {
  const std::pair<const char*, int64_t> ok[] = {
      {"3", 3},
      {"-0", 0},
      {"0", 0},
      {"1.0", 1},
      {"1e2", 100},
      {"12.50e1", 125},
      {"-4500E-2", -45},
      {"9007199254740992", 9007199254740992},
      {"-9007199254740992", -9007199254740992},
      {"0.0e99999999999", 0},
      {"900719925474099.2e1", 9007199254740992},
  };
  for (const auto& [text, want] : ok) {
    int64_t got = -1;
    std::string error;
    EXPECT_TRUE(ReadInt(text, &got, &error)) << text << ": " << error;
    EXPECT_EQ(got, want) << text;
  }
  const char* refused[] = {
      "1.5",           "9007199254740993", "1.000000000000000000001",
      "1e16",          "1e99999999999",    "5e-1",
      "1e-99999999999"};
  for (const char* text : refused) {
    int64_t got = 7;
    std::string error;
    EXPECT_FALSE(ReadInt(text, &got, &error)) << text;
    EXPECT_NE(error.find("an integer of at most 2^53"), std::string::npos)
        << text << ": " << error;
  }
}

TEST(JsonCursor, SkipsAnyNumber) {
  JsonCursor c(
      R"([1e400, 123456789012345678901234567890123456789012345678901234567890123456789, 2])");
  ASSERT_TRUE(c.BeginArray());
  ASSERT_TRUE(c.NextElement());
  EXPECT_TRUE(c.Skip());
  ASSERT_TRUE(c.NextElement());
  EXPECT_TRUE(c.Skip());
  ASSERT_TRUE(c.NextElement());
  int64_t two = 0;
  EXPECT_TRUE(c.Int(&two));
  EXPECT_EQ(two, 2);
  EXPECT_FALSE(c.NextElement());
  EXPECT_TRUE(c.ok()) << c.error();
  double big = 0;
  JsonCursor d("1e400");
  EXPECT_FALSE(d.Number(&big));
  EXPECT_NE(d.error().find("a finite number"), std::string::npos);
}

}  // namespace
}  // namespace webprof
