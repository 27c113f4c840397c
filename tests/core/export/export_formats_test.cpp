// Chrome trace JSON and .cpuprofile: validity for hostile names and round
// trips of sample counts, node structure and durations.
#include <gtest/gtest.h>

#include <map>

#include "export/format_chrome_trace.h"
#include "export/format_cpuprofile.h"
#include "export/json_check.h"
#include "export/json_writer.h"
#include "support/export_fixture.h"
#include "support/json_dom.h"

namespace webprof {
namespace {

using testing::Fixture;
using testing::Json;
using testing::ParseJson;
using testing::ParseJsonString;

// Sample count per function name, computed from the trace itself.
std::map<std::string, int> ExpectedLeafCounts(const ProfilerTrace& t) {
  std::map<std::string, int> m;
  for (size_t i = 0; i < t.samples().size(); ++i) {
    StackId s = t.samples()[i].stack;
    std::string name = s.is_none()
                           ? "(program)"
                           : std::string(t.frame_name(t.stacks().Get(s).frame));
    std::string fixed;
    JsonWriter::AppendQuoted(name, &fixed);  // normalised like the output
    ++m[ParseJsonString(fixed)];
  }
  return m;
}

TEST(ChromeTrace, IsValidJsonWithHostileNames) {
  Fixture f;
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{1000}}) {
    ByteSink sink(chunk);
    ChromeTraceOptions o;
    o.samples_per_chunk = 16;
    o.thread.thread_name = "t\"h\\r";
    WriteChromeTrace(f.input, o, sink);
    ASSERT_TRUE(IsValidJsonValue(sink.ToString())) << sink.ToString();
  }
}

// 100 samples: formatted one by one; 20000: through SampleTextCaches.
class ChromeTraceSizes : public ::testing::TestWithParam<size_t> {};
INSTANTIATE_TEST_SUITE_P(Samples, ChromeTraceSizes,
                         ::testing::Values(size_t{100}, size_t{20000}));

TEST_P(ChromeTraceSizes, ProfileChunksRoundTripSamplesAndTimes) {
  const size_t n = GetParam();
  Fixture f(n);
  ByteSink sink;
  ChromeTraceOptions o;
  o.samples_per_chunk = n < 1000 ? 16 : 4096;
  o.thread.pid = 42;
  o.thread.tid = 7;
  WriteChromeTrace(f.input, o, sink);
  Json doc = ParseJson(sink.ToString());
  const Json& ev = doc["traceEvents"];
  std::map<double, std::string> node_name;
  std::map<double, double> node_parent;
  std::vector<double> samples, deltas;
  int profile_events = 0, chunk_events = 0;
  for (const Json& e : ev.arr) {
    EXPECT_EQ(e["pid"].num, 42);
    EXPECT_EQ(e["tid"].num, 7);
    if (e["ph"].str != "P") continue;
    EXPECT_EQ(e["id"].str, "0x1");
    if (e["name"].str == "Profile") {
      ++profile_events;
      EXPECT_EQ(chunk_events, 0) << "Profile must precede its chunks";
      EXPECT_EQ(e["args"]["data"]["startTime"].num, 10000);
      continue;
    }
    ++chunk_events;
    const Json& cp = e["args"]["data"]["cpuProfile"];
    for (const Json& n : cp["nodes"].arr) {
      double id = n["id"].num;
      node_name[id] = n["callFrame"]["functionName"].str;
      if (n.has("parent")) {
        ASSERT_TRUE(node_name.count(n["parent"].num)) << "parent first";
        node_parent[id] = n["parent"].num;
      }
    }
    const Json& d = e["args"]["data"]["timeDeltas"];
    ASSERT_EQ(cp["samples"].arr.size(), d.arr.size());
    for (size_t i = 0; i < d.arr.size(); ++i) {
      samples.push_back(cp["samples"][i].num);
      deltas.push_back(d[i].num);
    }
  }
  EXPECT_EQ(profile_events, 1);
  EXPECT_EQ(size_t(chunk_events),
            (n + o.samples_per_chunk - 1) / o.samples_per_chunk);
  ASSERT_EQ(samples.size(), n);
  double t = 10000;
  std::map<std::string, int> counts;
  for (size_t i = 0; i < samples.size(); ++i) {
    t += deltas[i];
    EXPECT_DOUBLE_EQ(t, (10.0 + 0.5 * double(i)) * 1000);
    ASSERT_TRUE(node_name.count(samples[i]));
    ++counts[node_name[samples[i]]];
  }
  EXPECT_EQ(counts, ExpectedLeafCounts(f.trace));
  EXPECT_EQ(node_name[1], "(root)");
}

TEST(ChromeTrace, ProbeTracesMarksAndAggregates) {
  Fixture f(0);
  f.input.profile = nullptr;
  ByteSink sink;
  WriteChromeTrace(f.input, ChromeTraceOptions(), sink);
  ASSERT_TRUE(IsValidJsonValue(sink.ToString()));
  Json doc = ParseJson(sink.ToString());
  std::vector<const Json*> x, marks;
  const Json* aggr = nullptr;
  std::map<std::string, std::string> meta;
  for (const Json& e : doc["traceEvents"].arr) {
    if (e["ph"].str == "X") x.push_back(&e);
    if (e["ph"].str == "M") meta[e["name"].str] = e["args"]["name"].str;
    if (e["ph"].str == "i") {
      EXPECT_EQ(e["s"].str, "t");
      EXPECT_TRUE(e.has("tid"));
      if (e["name"].str == "webprof aggregates") {
        aggr = &e;
      } else {
        marks.push_back(&e);
      }
    }
    EXPECT_NE(e["ph"].str, "P");
  }
  EXPECT_EQ(meta["process_name"], "webprof");
  EXPECT_EQ(meta["thread_name"], "main");
  ASSERT_EQ(x.size(), 3u);
  EXPECT_EQ((*x[0])["name"].str, "outer \"x\"");
  EXPECT_EQ((*x[0])["ts"].num, 10250);
  EXPECT_EQ((*x[0])["dur"].num, 5125);  // 5.125 ms exactly
  EXPECT_EQ((*x[0])["args"]["info"]["n"].num, 1);
  EXPECT_EQ((*x[1])["args"]["info"].str, "not json {");  // kept as text
  EXPECT_FALSE(x[2]->has("args"));
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ((*marks[0])["name"].str, "mark \xF0\x9F\x98\x80");
  EXPECT_EQ((*marks[1])["ts"].num, 13000);
  EXPECT_EQ((*marks[1])["args"]["info"][1].num, 2);
  ASSERT_NE(aggr, nullptr);
  EXPECT_EQ((*aggr)["args"]["render"]["count"].num, 3);
  EXPECT_EQ((*aggr)["args"]["bad \\ name"].str, "nope");
  EXPECT_EQ((*aggr)["ts"].num, 18000);  // end of the last trace
}

TEST(ChromeTrace, EmptyInputIsStillAValidTrace) {
  ExportInput in;
  ByteSink sink;
  WriteChromeTrace(in, ChromeTraceOptions(), sink);
  EXPECT_TRUE(IsValidJsonValue(sink.ToString()));
  ProfilerTrace empty;
  in.profile = &empty;
  ByteSink sink2;
  WriteChromeTrace(in, ChromeTraceOptions(), sink2);
  Json doc = ParseJson(sink2.ToString());
  EXPECT_EQ(doc["traceEvents"].arr.size(), 4u);  // 2 M, Profile, one chunk
}

TEST(CpuProfile, RoundTripsTreeCountsAndTimes) {
  Fixture f(100);
  ByteSink sink(7);
  WriteCpuProfile(f.input, sink);
  std::string text = sink.ToString();
  ASSERT_TRUE(IsValidJsonValue(text)) << text;
  Json doc = ParseJson(text);
  EXPECT_EQ(doc["startTime"].num, 10000);
  EXPECT_EQ(doc["endTime"].num, 10000 + 99 * 500);
  const Json& nodes = doc["nodes"];
  std::map<double, const Json*> by_id;
  for (const Json& n : nodes.arr) by_id[n["id"].num] = &n;
  // 1 root + (program) + one per stack row.
  EXPECT_EQ(nodes.arr.size(), 2 + f.trace.stacks().size());
  EXPECT_EQ((*by_id[1])["callFrame"]["functionName"].str, "(root)");
  // Every child id exists and every non-root node is someone's child once.
  std::map<double, int> child_refs;
  for (const Json& n : nodes.arr)
    for (const Json& c : n["children"].arr) {
      ASSERT_TRUE(by_id.count(c.num));
      ++child_refs[c.num];
    }
  for (const Json& n : nodes.arr)
    EXPECT_EQ(child_refs[n["id"].num], n["id"].num == 1 ? 0 : 1);
  // hitCount agrees with samples; names agree with the trace.
  std::map<double, int> hits;
  for (const Json& s : doc["samples"].arr) ++hits[s.num];
  std::map<std::string, int> counts;
  for (const Json& n : nodes.arr) {
    EXPECT_EQ(n["hitCount"].num, hits[n["id"].num]);
    if (n["hitCount"].num > 0)
      counts[n["callFrame"]["functionName"].str] += int(n["hitCount"].num);
  }
  EXPECT_EQ(counts, ExpectedLeafCounts(f.trace));
  ASSERT_EQ(doc["timeDeltas"].arr.size(), 100u);
  double t = doc["startTime"].num;
  for (const Json& d : doc["timeDeltas"].arr) t += d.num;
  EXPECT_EQ(t, doc["endTime"].num);
}

TEST(CpuProfile, LinesAndColumnsAreZeroBasedAndScriptIdsStrings) {
  ProfilerTrace t;
  FrameId fr[2] = {t.InternFrame(RawFrame{"f", "https://x/a.js", 1, 1}),
                   t.InternFrame(RawFrame{"builtin", "", 0, 0})};
  StackId s = t.InternStack(fr, 2);
  t.mutable_samples().Append(Sample{1.0, s});
  ExportInput in;
  in.profile = &t;
  ByteSink sink;
  WriteCpuProfile(in, sink);
  Json doc = ParseJson(sink.ToString());
  const Json& f = doc["nodes"][1]["callFrame"];
  EXPECT_EQ(f["functionName"].str, "f");
  EXPECT_EQ(f["lineNumber"].num, 0);  // spec line 1
  EXPECT_EQ(f["columnNumber"].num, 0);
  EXPECT_EQ(f["scriptId"].str, "1");
  EXPECT_EQ(f["url"].str, "https://x/a.js");
  const Json& b = doc["nodes"][2]["callFrame"];
  EXPECT_EQ(b["lineNumber"].num, -1);
  EXPECT_EQ(b["scriptId"].str, "0");
  EXPECT_FALSE(doc["nodes"][0]["children"].arr.empty());
}

}  // namespace
}  // namespace webprof
