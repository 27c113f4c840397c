// JsonWriter escaping and number formatting; the strict JSON checker.
#include "export/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "export/json_check.h"
#include "support/json_dom.h"

namespace webprof {
namespace {

std::string Quoted(std::string_view s) {
  std::string out;
  JsonWriter::AppendQuoted(s, &out);
  return out;
}

std::string WriteDouble(double v) {
  ByteSink sink(3);
  JsonWriter w(&sink);
  w.Double(v);
  return sink.ToString();
}

TEST(JsonWriter, EscapesQuotesBackslashesAndControls) {
  EXPECT_EQ(Quoted("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(Quoted("\n\r\t\b\f"), R"("\n\r\t\b\f")");
  EXPECT_EQ(Quoted(std::string("\x00\x01\x1f", 3)), R"("\u0000\u0001\u001f")");
  EXPECT_EQ(Quoted("</script>\x7f"), "\"</script>\x7f\"");
}

TEST(JsonWriter, InvalidUtf8AndLoneSurrogatesBecomeReplacement) {
  // WTF-8 lone high surrogate (what a JS string "\uD800" encodes to).
  EXPECT_EQ(Quoted("a\xED\xA0\x80z"),
            "\"a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDz\"");
  EXPECT_EQ(Quoted("\xFF"), "\"\xEF\xBF\xBD\"");
  EXPECT_EQ(Quoted("\xC3"), "\"\xEF\xBF\xBD\"");  // truncated sequence
}

TEST(JsonWriter, NonBmpTextIsKept) {
  EXPECT_EQ(Quoted("\xF0\x9F\x98\x80 \xE4\xB8\xAD"),
            "\"\xF0\x9F\x98\x80 \xE4\xB8\xAD\"");
}

TEST(JsonWriter, HostileStringsRoundTrip) {
  const std::string names[] = {"\"},{\"ph\":\"X",
                               "\\",
                               "\\\"",
                               "\n]}",
                               std::string("nul\0byte", 8),
                               "\xF0\x9F\x92\xA9\xE2\x80\xA8\xE2\x80\xA9"};
  for (const std::string& n : names) {
    std::string q = Quoted(n);
    ASSERT_TRUE(IsValidJsonValue(q)) << q;
    EXPECT_EQ(testing::ParseJson(q).str, n);
  }
}

// Expected texts are what JSON.stringify prints in V8 for the same value.
TEST(JsonWriter, DoublesAreShortestRoundTripLaidOutAsJavaScript) {
  EXPECT_EQ(WriteDouble(0.1), "0.1");
  EXPECT_EQ(WriteDouble(1234.5), "1234.5");
  EXPECT_EQ(WriteDouble(-0.0), "0");
  EXPECT_EQ(WriteDouble(42), "42");
  EXPECT_EQ(WriteDouble(1.5e-7), "1.5e-7");
  EXPECT_EQ(WriteDouble(1.2345e-5), "0.000012345");
  EXPECT_EQ(WriteDouble(1e-6), "0.000001");
  EXPECT_EQ(WriteDouble(-2.5e-5), "-0.000025");
  EXPECT_EQ(WriteDouble(1.23e-18), "1.23e-18");
  EXPECT_EQ(WriteDouble(1e21), "1e+21");
  EXPECT_EQ(WriteDouble(1.5e21), "1.5e+21");
  EXPECT_EQ(WriteDouble(1152921504606847000.0), "1152921504606847000");
  EXPECT_EQ(WriteDouble(-36028797018963970.0), "-36028797018963970");
  EXPECT_EQ(WriteDouble(5e-324), "5e-324");
  EXPECT_EQ(WriteDouble(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(WriteDouble(3.0000000000000004e-1), "0.30000000000000004");
  EXPECT_EQ(WriteDouble(3.333333333333333e-1), "0.3333333333333333");
  EXPECT_EQ(WriteDouble(1.234567e-1), "0.1234567");
  for (double v : {1.0 / 3, 123456.789012345, 5e-324, 1.7976931348623157e308,
                   0.30000000000000004}) {
    std::string s = WriteDouble(v);
    EXPECT_TRUE(IsValidJsonValue(s)) << s;
    EXPECT_EQ(std::strtod(s.c_str(), nullptr), v) << s;
  }
}

TEST(JsonWriter, NonFiniteNumbersBecomeNull) {
  EXPECT_EQ(WriteDouble(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(WriteDouble(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(WriteDouble(-std::numeric_limits<double>::infinity()), "null");
}

TEST(JsonWriter, PlacesCommasAndRawValues) {
  ByteSink sink(2);
  JsonWriter w(&sink);
  w.BeginObject();
  w.Key("a");
  w.BeginArray();
  w.Int(1);
  w.IntElement(2);
  w.Null();
  w.Bool(true);
  w.EndArray();
  w.Key("ok");
  EXPECT_TRUE(w.Raw(R"({"x":[1,2]})"));
  w.Key("bad");
  EXPECT_FALSE(w.Raw("{oops"));
  w.EndObject();
  EXPECT_EQ(sink.ToString(),
            R"({"a":[1,2,null,true],"ok":{"x":[1,2]},"bad":"{oops"})");
}

TEST(JsonCheck, AcceptsRfc8259) {
  for (const char* ok : {"0", "-0.5e+3", "\"\\u00e9\\/\"", " [ ] ", "{}",
                         R"({"a":[{"b":null}],"c":true})", "1E5"}) {
    EXPECT_TRUE(IsValidJsonValue(ok)) << ok;
  }
}

TEST(JsonCheck, RejectsWhatParsersReject) {
  for (const char* bad : {"", "[1,]", "{\"a\":1,}", "NaN", "Infinity", "01",
                          "1.", ".5", "'a'", "\"a\tb\"", "\"\\x\"", "[1] [2]",
                          "{\"a\" 1}", "{1:2}", "\"\xFF\"", "[", "\"\\u12\""}) {
    EXPECT_FALSE(IsValidJsonValue(bad)) << bad;
  }
  EXPECT_FALSE(IsValidJsonValue(std::string(kJsonMaxDepth + 1, '[') +
                                std::string(kJsonMaxDepth + 1, ']')));
  EXPECT_TRUE(IsValidJsonValue(std::string(kJsonMaxDepth, '[') +
                               std::string(kJsonMaxDepth, ']')));
}

TEST(JsonWriter, IntegersAtEveryMagnitude) {
  for (int64_t v :
       {int64_t{0}, int64_t{7}, int64_t{10}, int64_t{99}, int64_t{100},
        int64_t{12345}, int64_t{4294967295}, int64_t{4294967296}, INT64_MAX,
        INT64_MIN + 1, int64_t{-42}}) {
    ByteSink sink(1);
    JsonWriter w(&sink);
    w.Int(v);
    EXPECT_EQ(sink.ToString(), std::to_string(v));
  }
  // Every digit count, at both ends (the formatter splits at 10^2, 10^4, 10^8).
  for (int64_t p = 1; p <= int64_t{1000000000000}; p *= 10) {
    for (int64_t v : {p - 1, p, p + 1, -p, 2 * p + 7}) {
      ByteSink sink(3);
      JsonWriter w(&sink);
      w.Int(v);
      EXPECT_EQ(sink.ToString(), std::to_string(v));
    }
  }
}

TEST(JsonWriter, IntElementsBatchesAcrossChunkEnds) {
  for (size_t chunk : {size_t{1}, size_t{5}, size_t{100}, size_t{1} << 16}) {
    ByteSink sink(chunk);
    JsonWriter w(&sink);
    w.BeginArray();
    w.Int(-1);
    w.IntElements(1000, [](size_t i) { return int64_t(i * i) - 500; });
    w.EndArray();
    std::string expect = "[-1";
    for (size_t i = 0; i < 1000; ++i)
      expect += "," + std::to_string(int64_t(i * i) - 500);
    EXPECT_EQ(sink.ToString(), expect + "]");
  }
}

TEST(JsonWriter, IntTextCacheGivesTheSameTextAsFormatting) {
  std::vector<int64_t> values = {7,
                                 0,
                                 99,
                                 100,
                                 999,
                                 1000,
                                 1001,
                                 1000,
                                 9999,
                                 10000,
                                 12344,
                                 12345,
                                 -1,
                                 -12345,
                                 9999999,
                                 10000000,
                                 int64_t{1} << 40,
                                 0,
                                 7};
  for (int i = 0; i < 3000; ++i) values.push_back((i * 7919) % 13000 - 5);
  for (uint32_t limit : {0u, 1u, 1000u, 12345u, 20000000u}) {
    for (size_t chunk : {size_t{1}, size_t{7}, size_t{1} << 16}) {
      ByteSink plain_sink(chunk), cached_sink(chunk);
      JsonWriter plain(&plain_sink), cached(&cached_sink);
      IntTextCache cache(limit);
      auto at = [&](size_t i) { return values[i]; };
      plain.BeginArray();
      plain.IntElements(values.size(), at);
      plain.EndArray();
      cached.BeginArray();
      cached.IntElements(values.size(), at, &cache);
      cached.IntElements(values.size(), at, &cache);  // now from the cache
      cached.EndArray();
      std::string once = plain_sink.ToString();
      std::string body = once.substr(1, once.size() - 2);
      EXPECT_EQ(cached_sink.ToString(), "[" + body + "," + body + "]")
          << "limit " << limit << " chunk " << chunk;
    }
  }
}

}  // namespace
}  // namespace webprof
