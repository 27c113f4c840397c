// The .cpuprofile importer: on a real profile Chromium 156 wrote through the
// DevTools protocol (tests/fixtures/v8-profiles/chromium156/
// profile.cpuprofile, captured by ../capture/capture.mjs from page.html),
// on webprof's own .cpuprofile export, and on small hand-written profiles
// for each rule and each refusal.
#include "import/cpuprofile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "export/format_cpuprofile.h"
#include "export/summary.h"
#include "support/import_fixture.h"

namespace webprof {
namespace {

using testing::StackPath;

// Chromium 156's V8 profiles, captured by ../capture/capture.mjs.
std::string Fixture(const std::string& name) {
  return testing::ReadFixture("v8-profiles/chromium156/" + name);
}

using Imported = testing::SessionImport<CpuProfileImportInfo>;

void Import(const std::string& json, Imported* r,
            const CpuProfileImportOptions& o = {}) {
  r->status = ImportCpuProfile(json, o, &r->session, &r->info, &r->error);
}

// root(1) -> a(2) -> b(3); root -> (program)(4); by `children`.
const char kSmall[] = R"J({"nodes":[
 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":0,"children":[2,4]},
 {"id":2,"callFrame":{"functionName":"a","scriptId":"3","url":"https://x.test/a.js","lineNumber":0,"columnNumber":9},"children":[3]},
 {"id":3,"callFrame":{"functionName":"b","scriptId":"3","url":"https://x.test/a.js","lineNumber":4,"columnNumber":0}},
 {"id":4,"callFrame":{"functionName":"(program)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}}],
 "startTime":1000,"endTime":2000,"samples":[3,2,4,3],"timeDeltas":[100,250,250,-50]})J";

TEST(CpuProfile, SniffsItsFormat) {
  EXPECT_TRUE(IsCpuProfile(kSmall));
  EXPECT_TRUE(IsCpuProfile(Fixture("profile.cpuprofile")));
  EXPECT_FALSE(IsCpuProfile(R"J({"traceEvents":[]})J"));
  EXPECT_FALSE(IsCpuProfile("[1]"));
}

TEST(CpuProfile, TreeFramesAndTimes) {
  Imported r;
  Import(kSmall, &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  const ProfilerTrace& t = r.session.trace();
  // Pseudo-frames are no function: (root) and (program) have no frame.
  ASSERT_EQ(t.frames().size(), 2u);
  const Frame& a = t.frames().Get(FrameId(0));
  EXPECT_EQ(t.frame_name(FrameId(0)), "a");
  EXPECT_EQ(t.resource_url(a.resource), "https://x.test/a.js");
  EXPECT_EQ(a.line, 1u);  // 0-based -> 1-based
  EXPECT_EQ(a.column, 10u);
  const Frame& b = t.frames().Get(FrameId(1));
  EXPECT_EQ(b.line, 5u);
  EXPECT_EQ(b.column, 1u);
  // Times: 1100, 1350, 1600, 1550 µs -> ordered (stable); origin 1000.
  const SampleBuffer& s = t.samples();
  ASSERT_EQ(s.size(), 4u);
  EXPECT_DOUBLE_EQ(s[0].timestamp, 0.1);
  EXPECT_DOUBLE_EQ(s[1].timestamp, 0.35);
  EXPECT_DOUBLE_EQ(s[2].timestamp, 0.55);
  EXPECT_DOUBLE_EQ(s[3].timestamp, 0.6);
  EXPECT_EQ(StackPath(t, s[0].stack), "a/b");
  EXPECT_EQ(StackPath(t, s[1].stack), "a");
  EXPECT_EQ(StackPath(t, s[2].stack), "a/b");  // the -50 µs one moved up
  EXPECT_TRUE(s[3].stack.is_none());           // (program)
  EXPECT_EQ(r.info.nodes, 4u);
  EXPECT_EQ(r.info.samples, 4u);
  EXPECT_DOUBLE_EQ(r.info.end_ms, 1.0);
}

TEST(CpuProfile, ParentStyleAndWindow) {
  // `parent` members instead of `children`; absolute `timestamps`.
  const char json[] = R"J({"nodes":[
   {"id":7,"callFrame":{"functionName":"(root)","url":""}},
   {"id":9,"parent":7,"callFrame":{"functionName":"f","url":"u.js","lineNumber":2,"columnNumber":3}}],
   "samples":[9,9,7],"timestamps":[10,20,30]})J";
  Imported r;
  CpuProfileImportOptions o;
  o.window_start_us = 15;
  Import(json, &r, o);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  const SampleBuffer& s = r.session.trace().samples();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_DOUBLE_EQ(s[0].timestamp, 0.01);  // origin: the first sample, 10
  EXPECT_EQ(StackPath(r.session.trace(), s[0].stack), "f");
  EXPECT_TRUE(s[1].stack.is_none());
  EXPECT_TRUE(std::isnan(r.info.end_ms));
}

TEST(CpuProfile, RealChromiumProfile) {
  std::string json = Fixture("profile.cpuprofile");
  ASSERT_FALSE(json.empty());
  Imported r;
  Import(json, &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  const ProfilerTrace& t = r.session.trace();
  EXPECT_EQ(r.info.samples, r.info.profile_samples);
  EXPECT_GT(r.info.samples, 100u);
  std::set<std::string> paths;
  t.samples().ForEach(
      [&](const Sample& s) { paths.insert(StackPath(t, s.stack)); });
  // The page's functions, nested as it calls them (positions are Chromium's
  // definition positions, 1-based here).
  bool leaf = false, method = false, recursion = false;
  for (const std::string& p : paths) {
    leaf |= p.find("outer/leaf/spin") != std::string::npos;
    method |= p.find("outer/run/leaf/spin") != std::string::npos;
    recursion |=
        p.find("recurse/recurse/recurse/recurse/spin") != std::string::npos;
  }
  EXPECT_TRUE(leaf && method && recursion);
  TraceSummary sum = SummarizeTrace(t, 3);
  ASSERT_FALSE(sum.rows.empty());
  EXPECT_EQ(t.frame_name(sum.rows[0].frame), "spin");
  const Frame& spin = t.frames().Get(sum.rows[0].frame);
  EXPECT_EQ(spin.line, 6u);  // `function spin(ms)` on page.html's line 6
  EXPECT_NE(t.resource_url(spin.resource).find("fixture.test"),
            std::string::npos);
}

TEST(CpuProfile, WebprofsOwnExportRoundTrips) {
  Imported first;
  Import(Fixture("profile.cpuprofile"), &first);
  ASSERT_EQ(first.status, Status::kOk) << first.error;
  ExportInput in;
  in.profile = &first.session.trace();
  ByteSink out;
  WriteCpuProfile(in, out);
  Imported again;
  Import(out.ToString(), &again);
  ASSERT_EQ(again.status, Status::kOk) << again.error;
  const ProfilerTrace& a = first.session.trace();
  const ProfilerTrace& b = again.session.trace();
  testing::ExpectSameSamplePaths(a, b);
  if (::testing::Test::HasFatalFailure()) return;
  for (size_t i = 0; i < a.samples().size(); ++i) {
    EXPECT_NEAR(a.samples()[i].timestamp - a.samples()[0].timestamp,
                b.samples()[i].timestamp - b.samples()[0].timestamp, 1e-3);
  }
  EXPECT_EQ(a.frames().size(), b.frames().size());
}

void ExpectRefused(const std::string& json, const std::string& says) {
  Imported r;
  Import(json, &r);
  EXPECT_EQ(r.status, Status::kMalformedProfile) << json;
  EXPECT_NE(r.error.find(says), std::string::npos) << r.error;
  EXPECT_EQ(r.session.trace().frames().size(), 0u);
  EXPECT_EQ(r.session.trace().samples().size(), 0u);
}

std::string WithNodes(
    const std::string& nodes,
    const std::string& rest = R"J("samples":[1],"timeDeltas":[1])J") {
  return R"J({"nodes":[)J" + nodes + R"J(],"startTime":0,"endTime":5,)J" +
         rest + "}";
}
const char kF[] = R"J("callFrame":{"functionName":"f","url":"u.js"})J";

TEST(CpuProfile, RefusesBadTreesWithTheReason) {
  using std::string;
  // A cycle by children: 1 -> 2 -> 1, no root.
  ExpectRefused(WithNodes(string(R"J({"id":1,"children":[2],)J") + kF +
                          R"J(},{"id":2,"children":[1],)J" + kF + "}"),
                "cycle");
  // A child of itself.
  ExpectRefused(WithNodes(string(R"J({"id":1,"children":[1],)J") + kF + "}"),
                "cycle");
  // A parent that comes later (a forward reference), or is the node itself.
  ExpectRefused(WithNodes(string(R"J({"id":1,"parent":2,)J") + kF +
                          R"J(},{"id":2,)J" + kF + "}"),
                "not an earlier node");
  ExpectRefused(WithNodes(string(R"J({"id":1,"parent":1,)J") + kF + "}"),
                "not an earlier node");
  // A parent or child that is no node; two parents; a duplicate id.
  ExpectRefused(WithNodes(string(R"J({"id":1,"parent":5,)J") + kF + "}"),
                "parent 5 is not a node");
  ExpectRefused(WithNodes(string(R"J({"id":1,"children":[8],)J") + kF + "}"),
                "child 8, which is not a node");
  ExpectRefused(WithNodes(string(R"J({"id":1,"children":[3],)J") + kF +
                          R"J(},{"id":2,"children":[3],)J" + kF +
                          R"J(},{"id":3,)J" + kF + "}"),
                "two parents");
  ExpectRefused(
      WithNodes(string(R"J({"id":1,)J") + kF + R"J(},{"id":1,)J" + kF + "}"),
      "appears twice");
  ExpectRefused(WithNodes(R"J({"id":1})J"), "no callFrame");
}

// Small ids (V8's 1..n) are checked through a table by id, others through
// a hash map: both give every refusal above, and references outside the
// table's range are no node.
TEST(CpuProfile, RefusesBadTreesWithLargeIdsAndOutOfRangeReferences) {
  using std::string;
  const string big = "100000000000";  // past the table: the hash map
  auto id = [&](const char* n) { return big + n; };
  ExpectRefused(WithNodes("{\"id\":" + id("1") + ",\"children\":[" + id("2") +
                              "]," + kF + "},{\"id\":" + id("2") +
                              ",\"children\":[" + id("1") + "]," + kF + "}",
                          "\"samples\":[" + id("1") + "],\"timeDeltas\":[1]"),
                "cycle");
  ExpectRefused(WithNodes("{\"id\":" + id("1") + ",\"parent\":" + id("2") +
                          "," + kF + "},{\"id\":" + id("2") + "," + kF + "}"),
                "not an earlier node");
  ExpectRefused(WithNodes("{\"id\":" + id("1") + ",\"parent\":" + id("5") +
                          "," + kF + "}"),
                "parent " + id("5") + " is not a node");
  ExpectRefused(WithNodes("{\"id\":" + id("1") + "," + kF +
                          "},{\"id\":" + id("1") + "," + kF + "}"),
                "node " + id("1") + " appears twice");
  ExpectRefused(WithNodes("{\"id\":" + id("1") + "," + kF + "}",
                          R"J("samples":[1],"timeDeltas":[1])J"),
                "names node 1");
  // Small ids, references out of the table's range (negative, past it).
  ExpectRefused(WithNodes(string(R"J({"id":1,"parent":-3,)J") + kF + "}"),
                "parent -3 is not a node");
  ExpectRefused(
      WithNodes(string(R"J({"id":1,"children":[99999999],)J") + kF + "}"),
      "child 99999999, which is not a node");
  ExpectRefused(WithNodes(string(R"J({"id":1,)J") + kF + "}",
                          R"J("samples":[-1],"timeDeltas":[1])J"),
                "names node -1");
  ExpectRefused(WithNodes(string(R"J({"id":2,)J") + kF + R"J(},{"id":0,)J" +
                          kF + R"J(},{"id":2,)J" + kF + "}"),
                "node 2 appears twice");
}

TEST(CpuProfile, RefusesBadSamplesWithTheReason) {
  std::string node = std::string(R"J({"id":1,)J") + kF + "}";
  ExpectRefused(WithNodes(node, R"J("samples":[2],"timeDeltas":[1])J"),
                "names node 2");
  // The table by id: a hole in it, the first bad sample named after good
  // ones; and the same through the map (ids past the table's bound).
  const std::string holed = std::string(R"J({"id":0,)J") + kF +
                            R"J(},{"id":2,"parent":0,)J" + kF + "}";
  ExpectRefused(
      WithNodes(holed, R"J("samples":[2,0,1,3],"timeDeltas":[1,1,1,1])J"),
      "sample 2 names node 1,");
  const std::string sparse = std::string(R"J({"id":5000000000,)J") + kF +
                             R"J(},{"id":7,"parent":5000000000,)J" + kF + "}";
  ExpectRefused(
      WithNodes(sparse, R"J("samples":[7,5000000000,8],"timeDeltas":[1,1,1])J"),
      "sample 2 names node 8,");
  ExpectRefused(WithNodes(node, R"J("samples":[1,1],"timeDeltas":[1])J"),
                "2 samples but 1 timeDeltas");
  ExpectRefused(WithNodes(node, R"J("samples":[1])J"),
                "without \"timeDeltas\"");
  ExpectRefused(WithNodes(node, R"J("hitCount":3)J"), "hitCount-only");
  ExpectRefused(WithNodes(node, R"J("samples":[1.5],"timeDeltas":[1])J"),
                "an integer");
  ExpectRefused(
      R"J({"nodes":[],"startTime":0,"samples":[],"timeDeltas":[]} x)J",
      "the end of the text");
}

// Long node lists and arrays take V8's compact shapes straight from the
// text. Each node and number below also has a spelling the fast paths do
// not take (a space after the node's '{', an integer written 1e1): both
// documents must import the same trace, or fail with the same error.
TEST(CpuProfile, CompactNodesReadAsTheGeneralPathReadsThem) {
  auto doc = [](bool compact, size_t at, const std::string& bad) {
    std::string nodes, samples, deltas;
    for (int i = 1; i <= 200; ++i) {
      if (i > 1) nodes += ',';
      if (size_t(i) == at) {
        nodes += bad;
        continue;
      }
      nodes += std::string(compact ? "{" : "{ ") +
               "\"id\":" + std::to_string(i) +
               ",\"callFrame\":{\"functionName\":\"f" + std::to_string(i % 7) +
               "\",\"scriptId\":" + (i % 2 ? "\"3\"" : "3") +
               ",\"url\":\"https://x.test/a" + std::to_string(i % 3) +
               ".js\",\"lineNumber\":" + std::to_string(i - 2) +
               ",\"columnNumber\":" + std::to_string(i % 5 - 1) + "}" +
               (i % 4 ? ",\"hitCount\":1" : "") +
               (i > 1 ? ",\"parent\":" + std::to_string(i / 2) : "") + "}";
    }
    for (int i = 0; i < 400; ++i) {
      samples += (i ? "," : "") + std::string(compact || i % 2 ? "10" : "1e1");
      deltas +=
          (i ? "," : "") + std::to_string(100 + i % 50 - (i == 7 ? 200 : 0));
    }
    samples.replace(samples.size() / 2, 2, "17");
    return "{\"nodes\":[" + nodes +
           "],\"startTime\":5,\"endTime\":99999,\"samples\":[" + samples +
           "],\"timeDeltas\":[" + deltas + "]}";
  };
  for (size_t at : {size_t{2}, size_t{100}, size_t{199}, size_t{200}}) {
    const std::string id = std::to_string(at);
    const std::string tail = ",\"parent\":" + std::to_string(at / 2) + "}";
    for (const std::string& bad : std::vector<std::string>{
             "{\"id\":" + id +
                 ",\"callFrame\":{\"functionName\":\"g\\u0041\",\"scriptId\":"
                 "\"1\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1}" +
                 tail,
             "{\"id\":" + id +
                 ",\"callFrame\":{\"functionName\":\"g\",\"scriptId\":{},"
                 "\"url\":\"u\",\"lineNumber\":1e1,\"columnNumber\":0}" +
                 tail,
             "{\"id\":" + id +
                 ",\"callFrame\":{\"functionName\":\"g\",\"scriptId\":\"1\","
                 "\"url\":\"u\",\"lineNumber\":-2,\"columnNumber\":0}" +
                 tail,
             "{\"id\":" + id +
                 ",\"callFrame\":{\"functionName\":\"g\",\"scriptId\":\"1\","
                 "\"url\":\"u\",\"lineNumber\":4294967295,\"columnNumber\":0}" +
                 tail,
             "{\"id\":0" + id +
                 ",\"callFrame\":{\"functionName\":\"g\",\"scriptId\":\"1\","
                 "\"url\":\"u\",\"lineNumber\":1,\"columnNumber\":0}" +
                 tail,
             "{\"id\":" + id +
                 ",\"callFrame\":{\"functionName\":\"g\",\"scriptId\":\"1\","
                 "\"url\":\"u\",\"lineNumber\":1,\"columnNumber\":0},"
                 "\"parent\":" +
                 id + "}",
             "{\"id\":" + id +
                 ",\"callFrame\":{\"functionName\":\"g\",\"scriptId\":\"1\","
                 "\"url\":\"u\",\"lineNumber\":1,\"columnNumber\":0}}",
             "{\"id\":" + id +
                 ",\"callFrame\":{\"functionName\":\"g\",\"scriptId\":\"1\","
                 "\"url\":\"u\"\n,\"lineNumber\":1,\"columnNumber\":0}" +
                 tail,
             "{\"id\":" + id +
                 ",\"callFrame\":{\"functionName\":\"g\",\"scriptId\":\"1\","
                 "\"url\":\"u\",\"lineNumber\":1}" +
                 tail,
         }) {
      Imported a, b;
      Import(doc(true, at, bad), &a);
      Import(doc(false, at, bad), &b);
      ASSERT_EQ(a.status, b.status) << bad << ": " << a.error;
      if (a.status != Status::kOk) {
        // Byte offsets differ by the spaces before the bad node.
        const std::regex offset("byte [0-9]+");
        EXPECT_EQ(std::regex_replace(a.error, offset, "byte N"),
                  std::regex_replace(b.error, offset, "byte N"))
            << bad;
        continue;
      }
      const ProfilerTrace& ta = a.session.trace();
      const ProfilerTrace& tb = b.session.trace();
      testing::ExpectSameSamplePaths(ta, tb);
      ASSERT_EQ(ta.samples().size(), 400u);
      for (size_t i = 0; i < 400; ++i)
        EXPECT_EQ(ta.samples()[i].timestamp, tb.samples()[i].timestamp);
    }
  }
}

TEST(CpuProfile, EveryTruncationIsAClearErrorAndAddsNothing) {
  const std::string json = kSmall;
  for (size_t cut = 0; cut < json.size(); ++cut) {
    Imported r;
    Import(json.substr(0, cut), &r);
    ASSERT_NE(r.status, Status::kOk) << cut;
    EXPECT_EQ(r.status, Status::kMalformedProfile);
    EXPECT_EQ(r.error.rfind(".cpuprofile: ", 0), 0u) << r.error;
    EXPECT_EQ(r.session.trace().samples().size(), 0u);
  }
}

// ForEachSample decides "in order and inside the window" from the first
// and last samples and one compare per sample: on random times (some out of
// order, NaN, before the origin, outside the window) it takes exactly the
// samples, in the order, that filtering then a stable sort give.
TEST(CpuProfile, ForEachSampleTakesWhatFilterThenStableSortGives) {
  std::mt19937 r(5);
  const double nan = std::nan("");
  V8NodeTree tree;
  std::vector<uint32_t> scratch;
  for (int it = 0; it < 20000; ++it) {
    V8Samples s;
    const size_t n = r() % 6;
    double t = 100;
    for (size_t i = 0; i < n; ++i) {
      const unsigned k = r() % 16;
      t += k == 0 ? -7.0 : k == 1 ? 0.0 : double(r() % 50);
      s.times_us.push_back(k == 2 && r() % 4 == 0 ? nan : t);
      s.index.push_back(static_cast<uint32_t>(i));
    }
    const double origin = r() % 3 ? 90 : 130;
    const double lo = r() % 2 ? -INFINITY : 110 + double(r() % 40);
    const double hi = r() % 2 ? INFINITY : 150 + double(r() % 80);
    std::vector<uint32_t> want;
    for (uint32_t i = 0; i < n; ++i) {
      const double x = s.times_us[i];
      if (x >= lo && x <= hi && x >= origin) want.push_back(i);
    }
    std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) {
      return s.times_us[a] < s.times_us[b];
    });
    std::vector<uint32_t> got;
    std::vector<double> us;
    ForEachSample(tree, s, origin, lo, hi, &scratch,
                  [&](double u, uint32_t index) {
                    got.push_back(index);
                    us.push_back(u);
                    return true;
                  });
    ASSERT_EQ(got, want) << it;
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(us[i], s.times_us[got[i]] - origin);
  }
}

}  // namespace
}  // namespace webprof
