// The W3C trace JSON importer: Chromium 156's native trace
// (tests/fixtures/traces/chromium156-native.json, members in sorted order:
// "frames" before "resources") and hand-written refusals.
#include "import/w3c_trace.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>
#include <vector>

#include "support/import_fixture.h"

namespace webprof {
namespace {

std::string Fixture(const std::string& name) {
  return testing::ReadFixture("traces/" + name);
}

Status Import(const std::string& json, Session* s, std::string* error) {
  W3CTraceImportInfo info;
  return ImportW3CTrace(json, s, &info, error);
}

TEST(W3CTrace, ChromiumsNativeTrace) {
  std::string json = Fixture("chromium156-native.json");
  EXPECT_TRUE(IsW3CTrace(json));
  Session s(SessionOptions{10, 100000, 0});
  std::string error;
  W3CTraceImportInfo info;
  ASSERT_EQ(ImportW3CTrace(json, &s, &info, &error), Status::kOk) << error;
  const ProfilerTrace& t = s.trace();
  EXPECT_EQ(t.samples().size(), info.samples);
  EXPECT_GT(info.samples, 10u);
  bool spin = false;
  for (uint32_t i = 0; i < t.frames().size(); ++i)
    spin |= t.frame_name(FrameId(i)) == "spin";
  EXPECT_TRUE(spin);
}

TEST(W3CTrace, OrdersSamplesAndKeepsEscapedNames) {
  const char json[] =
      R"J({"samples":[{"timestamp":5,"stackId":0},{"timestamp":2}],
    "stacks":[{"frameId":0}],"frames":[{"name":"a\u00e9\"b","resourceId":0,"line":3,"column":4,"generated":{}}],
    "resources":["https://x.test/\u0061.js"]})J";
  Session s(SessionOptions{10, 100, 0});
  std::string error;
  ASSERT_EQ(Import(json, &s, &error), Status::kOk) << error;
  const ProfilerTrace& t = s.trace();
  ASSERT_EQ(t.samples().size(), 2u);
  EXPECT_DOUBLE_EQ(t.samples()[0].timestamp, 2);
  EXPECT_TRUE(t.samples()[0].stack.is_none());
  EXPECT_EQ(t.frame_name(FrameId(0)), "a\xC3\xA9\"b");
  EXPECT_EQ(t.resource_url(ResourceId(0)), "https://x.test/a.js");
  EXPECT_EQ(t.frames().Get(FrameId(0)).line, 3u);
}

void ExpectRefused(const std::string& json, const std::string& says) {
  Session s(SessionOptions{10, 100, 0});
  std::string error;
  EXPECT_EQ(Import(json, &s, &error), Status::kMalformedProfile) << json;
  EXPECT_NE(error.find(says), std::string::npos) << error;
  EXPECT_EQ(s.trace().samples().size(), 0u);
}

TEST(W3CTrace, RefusesWithTheReason) {
  const std::string head = R"J({"resources":[],"frames":[{"name":"f"}],)J";
  ExpectRefused(
      head + R"J("stacks":[{"frameId":0,"parentId":0}],"samples":[]})J",
      "stack 0: a stack's parentId must name an earlier stack");
  ExpectRefused(
      head +
          R"J("stacks":[{"frameId":0,"parentId":1},{"frameId":0}],"samples":[]})J",
      "stack 0:");
  ExpectRefused(head + R"J("stacks":[{"frameId":3}],"samples":[]})J",
                "stack 0: frameId");
  ExpectRefused(
      head + R"J("stacks":[],"samples":[{"timestamp":1,"stackId":0}]})J",
      "sample 0: stackId");
  ExpectRefused(head + R"J("stacks":[],"samples":[{"timestamp":-1}]})J",
                "sample 0: timestamp");
  ExpectRefused(head + R"J("stacks":[],"samples":[{"stackId":1}]})J",
                "sample 0: at byte");
  ExpectRefused(head + R"J("stacks":[]})J", "no \"samples\"");
  ExpectRefused(
      R"J({"resources":[],"frames":[{"name":"f","resourceId":2}],"stacks":[],"samples":[]})J",
      "frame 0: resourceId");
  ExpectRefused(
      R"J({"resources":[],"frames":[{"line":1}],"stacks":[],"samples":[]})J",
      "frame 0:");
  std::string ok = head + R"J("stacks":[],"samples":[{"timestamp":1}]})J";
  for (size_t cut = 0; cut < ok.size(); ++cut) {
    Session s(SessionOptions{10, 100, 0});
    std::string error;
    ASSERT_EQ(Import(ok.substr(0, cut), &s, &error), Status::kMalformedProfile);
    EXPECT_EQ(error.rfind("W3C trace: ", 0), 0u);
  }
}

// The compact sample shapes take a fast path; any other spelling of the
// same samples is read member by member: both give the same trace.
TEST(W3CTrace, EverySpellingOfASampleReadsTheSame) {
  const std::string head =
      R"J({"resources":[],"frames":[{"name":"f"}],"stacks":[{"frameId":0}],"samples":)J";
  const std::string compact =
      R"J([{"timestamp":1.25,"stackId":0},{"timestamp":2},{"timestamp":3e0,"stackId":null}])J";
  const std::string other =
      R"J([ { "timestamp" : 1.25 , "stackId" : 0 } ,{"stackId":0,"timestamp":1.25e0, "x":[1]},
        {"timestamp":2,"stackId":0,"extra":{}},{"timestamp":3,"stackId":null}])J";
  Session a(SessionOptions{10, 100, 0}), b(SessionOptions{10, 100, 0});
  std::string error;
  ASSERT_EQ(Import(head + compact + "}", &a, &error), Status::kOk) << error;
  ASSERT_EQ(Import(head + other + "}", &b, &error), Status::kOk) << error;
  const SampleBuffer& sa = a.trace().samples();
  const SampleBuffer& sb = b.trace().samples();
  ASSERT_EQ(sa.size(), 3u);
  ASSERT_EQ(sb.size(), 4u);
  EXPECT_EQ(sa[0].timestamp, 1.25);
  EXPECT_EQ(sa[0].stack.value, 0u);
  EXPECT_TRUE(sa[1].stack.is_none());
  EXPECT_EQ(sa[2].timestamp, 3);
  EXPECT_TRUE(sa[2].stack.is_none());
  EXPECT_EQ(sb[1].timestamp, 1.25);
  EXPECT_EQ(sb[2].stack.value, 0u);
  // A fast-path sample with a bad value is refused as the slow path would.
  ExpectRefused(head + R"J([{"timestamp":1,"stackId":-1}]})J",
                "sample 0: at byte");
  ExpectRefused(head + R"J([{"timestamp":01}]})J", "no leading zero");
}

// Long tables take the compact rows straight from the text. Each row below
// has a same-length spelling the fast path does not take (a space before a
// comma): both documents must give the same trace, or the same error — the
// same row and byte — for a bad row anywhere among them.
TEST(W3CTrace, CompactRowsReadAsTheGeneralPathReadsThem) {
  const std::string head =
      R"J({"resources":[],"frames":[{"name":"f"}],"stacks":[{"frameId":0},{"frameId":0,"parentId":0}],"samples":[)J";
  auto doc = [&](bool compact, size_t at, const std::string& bad) {
    std::string rows;
    for (size_t i = 0; i < 300; ++i) {
      if (i) rows += ',';
      if (i == at) {
        rows += bad;
        continue;
      }
      const std::string t = std::to_string(i) + ".5";
      const std::string id = std::to_string(i % 2);
      switch (i % 3) {
        case 0:
          rows += compact ? "{\"timestamp\":" + t + "0,\"stackId\":" + id + "}"
                          : "{\"timestamp\":" + t + " ,\"stackId\":" + id + "}";
          break;
        case 1:
          rows += compact ? "{\"stackId\":" + id + ",\"timestamp\":" + t + "0}"
                          : "{\"stackId\":" + id + " ,\"timestamp\":" + t + "}";
          break;
        default:
          rows += compact ? "{\"timestamp\":" + t + "0}"
                          : "{\"timestamp\":" + t + " }";
      }
    }
    return head + rows + "]}";
  };
  for (size_t at :
       {size_t{0}, size_t{1}, size_t{150}, size_t{298}, size_t{299}}) {
    for (const std::string bad :
         {"{\"timestamp\":1,\"stackId\":-1}", "{\"timestamp\":01}",
          "{\"timestamp\":-5}", "{\"timestamp\":3,\"stackId\":2}",
          "{\"timestamp\":3,\"stackId\":4294967295}", "{\"stackId\":1}",
          "{\"timestamp\":1.}", "{\"timestamp\":1e999}", "{\"timestamp\":1",
          "{\"timestamp\":1.5e0,\"stackId\":1.0}",
          "{\"stackId\":null,\"timestamp\":0}",
          "{\"timestamp\":2,\"stackId\":0,\"x\":\"\\u00e9\"}", "[]"}) {
      Session a(SessionOptions{10, 1000, 0}), b(SessionOptions{10, 1000, 0});
      std::string ea, eb;
      const Status sa = Import(doc(true, at, bad), &a, &ea);
      const Status sb = Import(doc(false, at, bad), &b, &eb);
      ASSERT_EQ(sa, sb) << bad << " at " << at << ": " << ea;
      EXPECT_EQ(ea, eb) << bad << " at " << at;
      const SampleBuffer& ra = a.trace().samples();
      const SampleBuffer& rb = b.trace().samples();
      ASSERT_EQ(ra.size(), rb.size());
      for (size_t i = 0; i < ra.size(); ++i) {
        EXPECT_EQ(ra[i].timestamp, rb[i].timestamp) << i;
        EXPECT_EQ(ra[i].stack.value, rb[i].stack.value) << i;
      }
      if (sa == Status::kOk) EXPECT_EQ(ra.size(), 300u);
    }
  }
}

// A compact row's time is read from one word when its point and digits fit
// there ("1080.541"), else as any plain number: on random times of every
// width (leading zeros, exponents, long fractions among them) the compact
// rows and general ones (a space after the time) give the same samples, or
// the same error but for its byte offset.
TEST(W3CTrace, CompactTimesOfEveryWidthReadAsTheGeneralPathReadsThem) {
  std::mt19937 r(3);
  auto digits = [&](size_t n) {
    std::string d;
    for (size_t i = 0; i < n; ++i) d += char('0' + r() % 10);
    return d;
  };
  for (int it = 0; it < 300; ++it) {
    std::string compact, general;
    for (int i = 0; i < 40; ++i) {
      std::string t = digits(1 + r() % 8);
      if (r() % 4) t += "." + digits(r() % 9);
      if (r() % 40 == 0) t += "e1";
      if (r() % 60 == 0) t = "-" + t;
      const std::string tail = r() % 2 ? ",\"stackId\":0}" : "}";
      if (i) compact += ',', general += ',';
      compact += "{\"timestamp\":" + t + tail;
      general += "{\"timestamp\":" + t + " " + tail;
    }
    const std::string head =
        R"J({"resources":[],"frames":[{"name":"f"}],"stacks":[{"frameId":0}],"samples":[)J";
    const std::string ta = head + compact + "]}" + std::string(100, ' ');
    const std::string tb = head + general + "]}" + std::string(100, ' ');
    W3CTraceRows a, b;
    std::string ea, eb;
    const Status sa = ReadW3CTrace(ta, &a, &ea);
    const Status sb = ReadW3CTrace(tb, &b, &eb);
    ASSERT_EQ(sa, sb) << ta << "\n" << ea << "\n" << eb;
    const std::regex offset("byte [0-9]+");
    EXPECT_EQ(std::regex_replace(ea, offset, "byte"),
              std::regex_replace(eb, offset, "byte"));
    ASSERT_EQ(a.samples.size(), b.samples.size());
    for (size_t i = 0; i < a.samples.size(); ++i) {
      EXPECT_EQ(a.samples[i].timestamp, b.samples[i].timestamp) << i;
      EXPECT_EQ(a.samples[i].stack, b.samples[i].stack) << i;
    }
  }
}

// Frame and stack tables take their compact rows straight from the text too
// (webprof's and Chromium's: {"name":S,"resourceId":R,"line":L,"column":C}
// with any of the three indices left out, {"frameId":F,"parentId":P} with
// or without the parent). Each row below has a same-length spelling the
// fast path does not take (an index written 1e2 instead of 100): both
// documents must give the same rows, or the same error — the same table,
// row and byte — for a bad row anywhere among them.
TEST(W3CTrace, CompactFrameAndStackRowsReadAsTheGeneralPathReadsThem) {
  constexpr size_t kRows = 300;
  auto frame = [](size_t i, bool compact) {
    const std::string h = compact ? "100" : "1e2";
    const std::string name = "\"f" + std::to_string(i) + "\"";
    switch (i % 4) {
      case 0:
        return "{\"name\":" + name + ",\"resourceId\":0,\"line\":" + h +
               ",\"column\":" + std::to_string(i) + "}";
      case 1:
        return "{\"name\":" + name + ",\"line\":" + h + "}";
      case 2:
        return "{\"name\":" + name + ",\"resourceId\":1,\"column\":" + h + "}";
      default:
        return "{\"name\":" + name + ",\"line\":7,\"column\":" + h + "}";
    }
  };
  auto stack = [](size_t i, bool compact) {
    const std::string h = compact ? "100" : "1e2";
    if (i % 3 == 0) return "{\"frameId\":" + h + "}";
    if (i % 3 == 1)
      return "{\"frameId\":" + h + ",\"parentId\":" + std::to_string(i - 1) +
             "}";
    return "{\"frameId\":" + std::to_string(i % 7) + ",\"parentId\":" + h + "}";
  };
  // The bad row replaces row `at` of the frames (stacks_table false) or of
  // the stacks; stacks start at row 101 so that every parent 100 is earlier.
  auto doc = [&](bool compact, bool stacks_table, size_t at,
                 const std::string& bad) {
    std::string frames, stacks;
    for (size_t i = 0; i < kRows; ++i) {
      if (i) frames += ',', stacks += ',';
      frames += !stacks_table && i == at ? bad : frame(i, compact);
      stacks += stacks_table && i == at ? bad : stack(i + 101, compact);
    }
    std::string head;
    for (size_t i = 0; i < 101; ++i)
      head += "{\"frameId\":" + std::to_string(i % 5) +
              (i ? ",\"parentId\":" + std::to_string(i - 1) : "") + "},";
    return R"J({"resources":["a.js","b.js"],"frames":[)J" + frames +
           R"J(],"stacks":[)J" + head + stacks +
           R"J(],"samples":[{"timestamp":1,"stackId":5}]})J";
  };
  const std::vector<std::string> bad_frames = {
      "{\"name\":\"a\\\"b\",\"line\":1}",
      "{\"name\":1}",
      "{\"line\":1}",
      "{\"name\":\"x\",\"resourceId\":-1}",
      "{\"name\":\"x\",\"resourceId\":2}",
      "{\"name\":\"x\",\"resourceId\":null,\"line\":null}",
      "{\"name\":\"x\",\"line\":4294967295}",
      "{\"name\":\"x\",\"line\":4294967294,\"column\":0}",
      "{\"name\":\"x\",\"column\":1.5}",
      "{\"name\":\"x\",\"line\":01}",
      "{\"name\":\"x\",\"column\":1,\"line\":2}",
      "{\"name\":\"x\",\"line\":1,\"extra\":[]}",
      "{\"name\":\"\x01\"}",
      "{\"name\":\"x\"",
      "[]"};
  const std::vector<std::string> bad_stacks = {
      "{\"frameId\":-1}",
      "{\"frameId\":300}",
      "{\"frameId\":0,\"parentId\":500}",
      "{\"frameId\":0,\"parentId\":null}",
      "{\"parentId\":0}",
      "{\"frameId\":null}",
      "{\"frameId\":01}",
      "{\"frameId\":4294967295}",
      "{\"frameId\":0,\"parentId\":1.0}",
      "{\"parentId\":3,\"frameId\":2}",
      "{\"frameId\":0",
      "[]"};
  for (const bool stacks_table : {false, true}) {
    for (size_t at :
         {size_t{0}, size_t{1}, size_t{150}, kRows - 2, kRows - 1}) {
      for (const std::string& bad : stacks_table ? bad_stacks : bad_frames) {
        // The rows view their text: it outlives them.
        const std::string ta = doc(true, stacks_table, at, bad),
                          tb = doc(false, stacks_table, at, bad);
        W3CTraceRows a, b;
        std::string ea, eb;
        const Status sa = ReadW3CTrace(ta, &a, &ea);
        const Status sb = ReadW3CTrace(tb, &b, &eb);
        ASSERT_EQ(sa, sb) << bad << " at " << at << ": " << ea;
        EXPECT_EQ(ea, eb) << bad << " at " << at;
        if (sa != Status::kOk) continue;
        ASSERT_EQ(a.frames.size(), kRows);
        ASSERT_EQ(b.frames.size(), kRows);
        for (size_t i = 0; i < kRows; ++i) {
          EXPECT_EQ(a.frames[i].name, b.frames[i].name) << i;
          EXPECT_EQ(a.frames[i].resource, b.frames[i].resource) << i;
          EXPECT_EQ(a.frames[i].line, b.frames[i].line) << i;
          EXPECT_EQ(a.frames[i].column, b.frames[i].column) << i;
        }
        EXPECT_EQ(a.stacks, b.stacks);
        EXPECT_EQ(a.stacks.size(), 2 * (kRows + 101));
      }
    }
  }
}

}  // namespace
}  // namespace webprof
