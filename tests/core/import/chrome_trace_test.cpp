// The Chrome trace importer: on a real trace Chromium 156 wrote with the
// disabled-by-default-v8.cpu_profiler category (tests/fixtures/v8-profiles/
// chromium156/trace.json, captured by ../capture/capture.mjs from page.html:
// its Profile/ProfileChunk events, metadata and 300 other events), on
// webprof's own Chrome export, and on hand-written traces for each rule and
// each refusal.
#include "import/chrome_trace.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "export/format_chrome_trace.h"
#include "import/cpuprofile.h"
#include "support/import_fixture.h"

namespace webprof {
namespace {

using testing::StackPath;

// Chromium 156's V8 profiles, captured by ../capture/capture.mjs.
std::string Fixture(const std::string& name) {
  return testing::ReadFixture("v8-profiles/chromium156/" + name);
}

struct Imported {
  Status status;
  std::vector<ChromeTraceProfile> profiles;
  ChromeTraceImportInfo info;
  std::string error;
};

void Import(const std::string& json, Imported* r) {
  r->status = ImportChromeTrace(json, ChromeTraceImportOptions{}, &r->profiles,
                                &r->info, &r->error);
}

// Two chunks: the second's node 3 has its parent in the first; V8's last
// chunk has endTime. Args first, as Chrome writes events.
const char kTwoChunks[] = R"J({"traceEvents":[
 {"args":{"name":"CrRendererMain"},"cat":"__metadata","name":"thread_name","ph":"M","pid":5,"tid":7,"ts":0},
 {"args":{"data":{"startTime":1000}},"cat":"disabled-by-default-v8.cpu_profiler","id":"0x1","name":"Profile","ph":"P","pid":5,"tid":7,"ts":1000},
 {"args":{"data":{"cpuProfile":{"nodes":[{"callFrame":{"functionName":"(root)","scriptId":0,"url":"","lineNumber":-1,"columnNumber":-1},"id":1},
   {"callFrame":{"functionName":"a","scriptId":3,"url":"https://x.test/a.js","lineNumber":0,"columnNumber":9},"id":2,"parent":1}],"samples":[2,2]},"timeDeltas":[100,100]}},
  "cat":"disabled-by-default-v8.cpu_profiler","id":"0x1","name":"ProfileChunk","ph":"P","pid":5,"tid":9,"ts":1300},
 {"name":"RunTask","ph":"X","pid":5,"tid":7,"ts":1200,"dur":50,"args":{"src":{"file":"x","line":[1,{"deep":[]}]}}},
 {"args":{"data":{"cpuProfile":{"nodes":[{"callFrame":{"functionName":"b","scriptId":3,"url":"https://x.test/a.js","lineNumber":4,"columnNumber":0},"id":3,"parent":2}],"samples":[3,1]},"timeDeltas":[100,100],"endTime":1800}},
  "cat":"disabled-by-default-v8.cpu_profiler","id":"0x1","name":"ProfileChunk","ph":"P","pid":5,"tid":9,"ts":1500}
],"metadata":{"x":1}})J";

// Names with escapes are kept by the profile's own tables; with many
// profiles the reader's list of them grows and moves them, and every name
// must survive (a copy once left names pointing into freed strings: found by
// chrome_trace_fuzz under ASan).
TEST(ChromeTrace, EscapedNamesSurviveManyProfiles) {
  std::string json = R"J({"traceEvents":[)J";
  const int kProfiles = 9;
  for (int i = 1; i <= kProfiles; ++i) {
    const std::string id = "\"0x" + std::to_string(i) + "\"";
    if (i > 1) json += ",";
    json += R"J({"args":{"data":{"startTime":1000}},"id":)J" + id +
            R"J(,"name":"Profile","ph":"P","pid":5,"tid":7,"ts":1000},)J";
    json +=
        R"J({"args":{"data":{"cpuProfile":{"nodes":[{"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"id":1},)J"
        R"J({"callFrame":{"functionName":"caf\u00e9 number )J" +
        std::to_string(i) +
        R"J( with a long name","url":"https://x.test/a.js","lineNumber":0,"columnNumber":0},"id":2,"parent":1}],"samples":[2]},"timeDeltas":[100]}},"id":)J" +
        id + R"J(,"name":"ProfileChunk","ph":"P","pid":5,"tid":7,"ts":1100})J";
  }
  json += "]}";
  Imported r;
  Import(json, &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  ASSERT_EQ(r.profiles.size(), static_cast<size_t>(kProfiles));
  for (int i = 0; i < kProfiles; ++i) {
    const ProfilerTrace& t = r.profiles[i].session->trace();
    ASSERT_EQ(t.samples().size(), 1u);
    EXPECT_EQ(
        StackPath(t, t.samples()[0].stack),
        "caf\xc3\xa9 number " + std::to_string(i + 1) + " with a long name");
  }
}

TEST(ChromeTrace, SniffsItsFormat) {
  EXPECT_TRUE(IsChromeTrace(kTwoChunks));
  EXPECT_TRUE(IsChromeTrace(" [ {\"ph\":\"M\"} ]"));
  EXPECT_TRUE(IsChromeTrace(Fixture("trace.json")));
  EXPECT_FALSE(IsChromeTrace(R"J({"nodes":[]})J"));
}

TEST(ChromeTrace, ChunksNodesAcrossChunksAndEndTime) {
  Imported r;
  Import(kTwoChunks, &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(r.info.events, 5u);
  ASSERT_EQ(r.profiles.size(), 1u);
  const ChromeTraceProfile& p = r.profiles[0];
  EXPECT_EQ(p.pid, 5);
  EXPECT_EQ(p.tid, 7);  // the Profile event's thread, not the chunks'
  EXPECT_EQ(p.id, "0x1");
  const ProfilerTrace& t = p.session->trace();
  ASSERT_EQ(t.samples().size(), 4u);
  EXPECT_EQ(StackPath(t, t.samples()[0].stack), "a");
  EXPECT_EQ(StackPath(t, t.samples()[2].stack), "a/b");
  EXPECT_TRUE(t.samples()[3].stack.is_none());
  EXPECT_DOUBLE_EQ(t.samples()[3].timestamp, 0.4);  // origin: startTime
  EXPECT_DOUBLE_EQ(p.end_ms, 0.8);
  EXPECT_EQ(t.frames().Get(FrameId(0)).line, 1u);
}

// Args come before the name, so the reader reads them ahead into the last
// profile's tables: interleaved profiles and an event whose args look like
// a chunk's must each end up where they belong, and nowhere else.
TEST(ChromeTrace, ArgsReadAheadGoToTheirOwnProfileOnly) {
  auto chunk = [](const char* id, const char* data) {
    return std::string(R"J({"args":{"data":)J") + data +
           R"J(},"cat":"c","id":")J" + id +
           R"J(","name":"ProfileChunk","ph":"P","pid":5,"tid":9,"ts":0})J";
  };
  auto node = [](int id, int parent, const char* name) {
    return R"J({"id":)J" + std::to_string(id) +
           R"J(,"callFrame":{"functionName":")J" + name +
           R"J(","scriptId":"3","url":"https://x.test/a.js","lineNumber":0,"columnNumber":0})J" +
           (parent ? R"J(,"parent":)J" + std::to_string(parent) : "") + "}";
  };
  const std::string root =
      R"J({"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}})J";
  const std::string json =
      std::string("[") +
      R"J({"args":{"data":{"startTime":1000}},"id":"0x1","name":"Profile","ph":"P","pid":5,"tid":7,"ts":0},)J"
      R"J({"args":{"data":{"startTime":1000}},"id":"0x2","name":"Profile","ph":"P","pid":5,"tid":8,"ts":0},)J" +
      chunk("0x1",
            (R"J({"cpuProfile":{"nodes":[)J" + root + "," + node(2, 1, "a") +
             R"J(],"samples":[2]},"timeDeltas":[100]})J")
                .c_str()) +
      "," +
      chunk("0x2",
            (R"J({"cpuProfile":{"nodes":[)J" + root + "," + node(2, 1, "b") +
             R"J(],"samples":[2]},"timeDeltas":[50]})J")
                .c_str()) +
      "," +
      chunk("0x2", (R"J({"cpuProfile":{"nodes":[)J" + node(3, 2, "c") +
                    R"J(],"samples":[3,2]},"timeDeltas":[50,50]})J")
                       .c_str()) +
      "," +
      // Not a profile event, though its args read as a chunk's.
      R"J({"args":{"data":{"cpuProfile":{"nodes":[)J" + node(9, 0, "fake") +
      R"J(],"samples":[9]},"timeDeltas":[1]}},"name":"Other","ph":"X","pid":5,"tid":8,"ts":0},)J" +
      chunk(
          "0x1",
          R"J({"cpuProfile":{"samples":[1]},"timeDeltas":[100],"endTime":1300})J") +
      "]";
  Imported r;
  Import(json, &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  ASSERT_EQ(r.profiles.size(), 2u);
  const ProfilerTrace& a = r.profiles[0].session->trace();
  const ProfilerTrace& b = r.profiles[1].session->trace();
  EXPECT_EQ(r.profiles[0].id, "0x1");
  ASSERT_EQ(a.samples().size(), 2u);
  EXPECT_EQ(StackPath(a, a.samples()[0].stack), "a");
  EXPECT_TRUE(a.samples()[1].stack.is_none());
  EXPECT_EQ(a.frames().size(), 1u);  // no "fake"
  EXPECT_DOUBLE_EQ(r.profiles[0].end_ms, 0.3);
  ASSERT_EQ(b.samples().size(), 3u);
  EXPECT_EQ(StackPath(b, b.samples()[1].stack), "b/c");
  EXPECT_EQ(StackPath(b, b.samples()[2].stack), "b");
  EXPECT_EQ(b.frames().size(), 2u);
  EXPECT_TRUE(std::isnan(r.profiles[1].end_ms));
}

TEST(ChromeTrace, BareArrayAndTheOlderCpuProfileEvent) {
  const char json[] = R"J([
   {"name":"CpuProfile","ph":"I","pid":2,"tid":3,"ts":0,"args":{"data":{"cpuProfile":
    {"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},
              {"id":2,"callFrame":{"functionName":"g","url":"g.js","lineNumber":1,"columnNumber":1}}],
     "startTime":50,"endTime":90,"samples":[2,2],"timeDeltas":[10,10]}}}}])J";
  Imported r;
  Import(json, &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  ASSERT_EQ(r.profiles.size(), 1u);
  const ProfilerTrace& t = r.profiles[0].session->trace();
  ASSERT_EQ(t.samples().size(), 2u);
  EXPECT_EQ(StackPath(t, t.samples()[1].stack), "g");
  EXPECT_DOUBLE_EQ(r.profiles[0].end_ms, 0.04);
}

TEST(ChromeTrace, RealChromiumTrace) {
  std::string json = Fixture("trace.json");
  ASSERT_FALSE(json.empty());
  Imported r;
  Import(json, &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  ASSERT_GE(r.profiles.size(), 1u);
  // The page's thread: its profile has the workload's stacks (in this
  // optimized run V8 inlined spin() into leaf(): leaf's samples are in
  // performance.now, "now", a builtin without URL).
  bool found = false;
  for (const ChromeTraceProfile& p : r.profiles) {
    const ProfilerTrace& t = p.session->trace();
    for (size_t i = 0; i < t.samples().size(); ++i) {
      std::string path = StackPath(t, t.samples()[i].stack);
      found |= path.find("outer/run/leaf/now") != std::string::npos ||
               path.find("outer/recurse/recurse/recurse/recurse/spin") !=
                   std::string::npos;
    }
    double prev = 0;
    t.samples().ForEach([&](const Sample& s) {
      EXPECT_GE(s.timestamp, prev);
      prev = s.timestamp;
    });
  }
  EXPECT_TRUE(found);
}

TEST(ChromeTrace, WebprofsOwnExportRoundTrips) {
  // The real .cpuprofile through webprof's Chrome writer (small chunks).
  testing::SessionImport<CpuProfileImportInfo> first;
  ASSERT_EQ(ImportCpuProfile(Fixture("profile.cpuprofile"), {}, &first.session,
                             &first.info, &first.error),
            Status::kOk)
      << first.error;
  ExportInput in;
  in.profile = &first.session.trace();
  ChromeTraceOptions o;
  o.samples_per_chunk = 7;
  ByteSink out;
  WriteChromeTrace(in, o, out);
  Imported r;
  Import(out.ToString(), &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  ASSERT_EQ(r.profiles.size(), 1u);
  testing::ExpectSameSamplePaths(first.session.trace(),
                                 r.profiles[0].session->trace());
}

void ExpectRefused(const std::string& json, const std::string& says,
                   Status status = Status::kMalformedProfile) {
  Imported r;
  Import(json, &r);
  EXPECT_EQ(r.status, status) << json;
  EXPECT_NE(r.error.find(says), std::string::npos) << r.error;
  EXPECT_TRUE(r.profiles.empty());
}

std::string Chunk(const std::string& nodes, const std::string& rest) {
  return R"J({"name":"ProfileChunk","ph":"P","id":"0x2","pid":1,"args":{"data":{"cpuProfile":{"nodes":[)J" +
         nodes + "]," + rest + "}}}";
}
const char kProfile[] =
    R"J({"name":"Profile","ph":"P","id":"0x2","pid":1,"tid":1,"args":{"data":{"startTime":5}}})J";
const char kRoot[] =
    R"J({"id":1,"callFrame":{"functionName":"(root)","url":""}})J";

TEST(ChromeTrace, RefusesWithTheReason) {
  using std::string;
  ExpectRefused(R"J({"traceEvents":[{"name":"X","ph":"X"}]})J",
                "no V8 CPU profile", Status::kNoProfileThread);
  ExpectRefused(R"J({"events":[]})J", "no \"traceEvents\"");
  ExpectRefused(
      "[" + Chunk(kRoot, R"J("samples":[1]},"timeDeltas":[1])J") + "]",
      "without its Profile event");
  // A parent defined in a later chunk: a forward reference.
  ExpectRefused(
      string("[") + kProfile + "," +
          Chunk(
              R"J({"id":2,"parent":1,"callFrame":{"functionName":"f","url":"u"}})J",
              R"J("samples":[]},"timeDeltas":[])J") +
          "," + Chunk(kRoot, R"J("samples":[]},"timeDeltas":[])J") + "]",
      "not an earlier node");
  ExpectRefused(string("[") + kProfile + "," +
                    Chunk(kRoot, R"J("samples":[1,1]},"timeDeltas":[1])J") +
                    "]",
                "2 samples but 1 timeDeltas");
  ExpectRefused(string("[") + kProfile + "," +
                    Chunk(kRoot, R"J("samples":[4]},"timeDeltas":[1])J") + "]",
                "names node 4");
  ExpectRefused(string("[") + kProfile + "," +
                    Chunk(kRoot, R"J("samples":[1]},"timeDeltas":["x"])J") +
                    "]",
                "ProfileChunk event of profile 0x2 (pid 1)");
  ExpectRefused(
      R"J([{"name":"Profile","ph":"P","id":"0x2","pid":1,"args":{"data":{}}}])J",
      "no data.startTime");
}

TEST(ChromeTrace, HugeOrFractionalIdsAreNoUndefinedBehaviour) {
  Imported r;
  Import(R"J([{"name":"X","ph":"X","pid":1e300,"tid":-1e300,"id":2.5}])J", &r);
  EXPECT_EQ(r.status, Status::kNoProfileThread) << r.error;
}

TEST(ChromeTrace, EveryTruncationIsAClearError) {
  const std::string json = kTwoChunks;
  for (size_t cut = 0; cut < json.size(); ++cut) {
    Imported r;
    Import(json.substr(0, cut), &r);
    ASSERT_EQ(r.status, Status::kMalformedProfile) << cut;
    EXPECT_EQ(r.error.rfind("Chrome trace: ", 0), 0u) << r.error;
    EXPECT_TRUE(r.profiles.empty());
  }
}

}  // namespace
}  // namespace webprof
