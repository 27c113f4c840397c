// The W3C trace JSON importer: Chromium 156's native trace
// (tests/fixtures/traces/chromium156-native.json, members in sorted order:
// "frames" before "resources") and hand-written refusals.
#include "import/w3c_trace.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace webprof
