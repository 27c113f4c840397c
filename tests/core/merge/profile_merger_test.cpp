// The merger: inputs of every format folded into one weighted profile —
// totals are the sums of the inputs', the same function is one function
// across formats, a source map renames before identity is decided, memory
// does not grow with the number of inputs, and every output format carries
// the weights by its documented rule.
#include "merge/profile_merger.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "export/format_chrome_trace.h"
#include "export/format_cpuprofile.h"
#include "export/format_registry.h"
#include "import/cpuprofile.h"
#include "support/json_dom.h"

namespace webprof {
namespace {

using testing::Json;
using testing::ParseJson;

std::string Fixture(const std::string& path) {
  std::ifstream in(std::string(WEBPROF_FIXTURES_DIR) + "/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
const char kCpuProfile[] = "v8-profiles/chromium156/profile.cpuprofile";
const char kChromeTrace[] = "v8-profiles/chromium156/trace.json";
const char kW3C[] = "traces/chromium156-native.json";

MergeInputInfo Add(ProfileMerger& m, const std::string& text,
                   const std::string& name = "input") {
  MergeInputInfo info;
  std::string error;
  EXPECT_EQ(m.AddInput(text, name, &info, &error), Status::kOk) << error;
  return info;
}

// Weight per stack path ("a/b/c"), from the merged profile.
std::map<std::string, SampleWeight> ByPath(ProfileMerger& m) {
  const ExportInput& in = m.ExportView();
  const ProfilerTrace& t = *in.profile;
  std::map<std::string, SampleWeight> out;
  for (size_t i = 0; i < t.samples().size(); ++i) {
    std::string path;
    for (StackId s = t.samples()[i].stack; !s.is_none();
         s = t.stacks().Get(s).parent)
      path = std::string(t.frame_name(t.stacks().Get(s).frame)) + "/" + path;
    SampleWeight& w = out[path];
    w.count += (*in.weights)[i].count;
    w.time_ns += (*in.weights)[i].time_ns;
  }
  return out;
}

TEST(ProfileMerger, TotalsAreTheSumsOfTheInputs) {
  ProfileMerger m;
  MergeInputInfo a = Add(m, Fixture(kCpuProfile), "a.cpuprofile");
  MergeInputInfo b = Add(m, Fixture(kChromeTrace), "b.json");
  MergeInputInfo c = Add(m, Fixture(kW3C), "c.json");
  EXPECT_EQ(a.format, ProfileFormat::kCpuProfile);
  EXPECT_EQ(b.format, ProfileFormat::kChromeTrace);
  EXPECT_EQ(c.format, ProfileFormat::kW3CTrace);
  const MergeTotals& t = m.totals();
  EXPECT_EQ(t.inputs, 3u);
  EXPECT_EQ(t.samples, a.samples + b.samples + c.samples);
  EXPECT_EQ(t.time_ns, a.time_ns + b.time_ns + c.time_ns);
  uint64_t count = 0;
  int64_t ns = 0;
  for (const auto& kv : ByPath(m)) {
    count += kv.second.count;
    ns += kv.second.time_ns;
  }
  EXPECT_EQ(count, t.samples);
  EXPECT_EQ(ns, t.time_ns);
}

TEST(ProfileMerger, ACpuProfilesTimeIsItsSpanUpToEndTime) {
  // Samples at 1100..1600 µs, endTime 2000: 900 µs; 4 samples.
  const char json[] =
      R"J({"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},
    {"id":2,"callFrame":{"functionName":"a","url":"a.js","lineNumber":0,"columnNumber":0}}],
    "startTime":1000,"endTime":2000,"samples":[2,2,1,2],"timeDeltas":[100,250,250,-50]})J";
  ProfileMerger m;
  MergeInputInfo info = Add(m, json);
  EXPECT_EQ(info.samples, 4u);
  EXPECT_EQ(info.time_ns, 900000);
  auto w = ByPath(m);
  EXPECT_EQ(w["a/"].count, 3u);
  // Ordered: a 1100, a 1350, a 1550 (the -50 µs one), (root) 1600; the
  // last lasts until endTime (2000).
  EXPECT_EQ(w["a/"].time_ns, 250000 + 200000 + 50000);
  EXPECT_EQ(w[""].time_ns, 400000);
}

TEST(ProfileMerger, WithoutAnEndTheLastSampleLastsTheMedianInterval) {
  const char json[] =
      R"J({"resources":[],"frames":[{"name":"f"}],"stacks":[{"frameId":0}],
    "samples":[{"timestamp":1,"stackId":0},{"timestamp":2,"stackId":0},{"timestamp":5,"stackId":0},{"timestamp":6}]})J";
  ProfileMerger m;
  MergeInputInfo info = Add(m, json);
  // Gaps 1, 3, 1 ms; the last sample: the median, 1 ms.
  EXPECT_EQ(info.time_ns, 6000000);
  EXPECT_EQ(ByPath(m)[""].time_ns, 1000000);
}

// A V8 profile is folded without a gap list; when its end is missing or
// not after its last sample, the gaps are taken again for the median — in
// the fold's order whether the samples were in order or not.
TEST(ProfileMerger, AV8ProfileWithoutAnEndAfterItsLastSampleLastsTheMedian) {
  auto profile = [](const std::string& end, const std::string& deltas) {
    return R"J({"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},
    {"id":2,"callFrame":{"functionName":"a","url":"a.js","lineNumber":0,"columnNumber":0}}],
    "startTime":1000,)J" +
           end + R"J("samples":[2,2,1,2],"timeDeltas":)J" + deltas + "}";
  };
  for (const std::string end : {"", "\"endTime\":1500,"}) {
    // In order: 1100, 1350, 1600, 2200 µs; gaps 250, 250, 600: median 250.
    ProfileMerger m;
    MergeInputInfo info = Add(m, profile(end, "[100,250,250,600]"));
    EXPECT_EQ(info.time_ns, 1350000) << end;
    EXPECT_EQ(ByPath(m)["a/"].time_ns, 250000 + 250000 + 250000) << end;
    // Out of order: 1100, 1350, 1550 (a), 1600 (root); gaps 250, 200, 50.
    ProfileMerger u;
    info = Add(u, profile(end, "[100,250,250,-50]"));
    EXPECT_EQ(info.time_ns, 700000) << end;
    auto w = ByPath(u);
    EXPECT_EQ(w["a/"].time_ns, 250000 + 200000 + 50000) << end;
    EXPECT_EQ(w[""].time_ns, 200000) << end;
  }
}

// The merger reads each input into rows it keeps from input to input
// (cleared first): an input refused half-way, of the same format or
// another, leaves nothing behind for the next one.
TEST(ProfileMerger, AnInputRefusedHalfWayLeavesNothingForTheNext) {
  const std::string cpu = Fixture(kCpuProfile), w3c = Fixture(kW3C);
  ProfileMerger twice;
  Add(twice, cpu);
  Add(twice, w3c);
  Add(twice, cpu);
  Add(twice, w3c);
  const auto want = ByPath(twice);
  for (const double at : {0.3, 0.6, 0.9}) {
    ProfileMerger m;
    std::string error;
    MergeInputInfo info;
    Add(m, cpu);
    Add(m, w3c);
    for (const std::string* text : {&cpu, &w3c}) {
      const std::string cut =
          text->substr(0, size_t(double(text->size()) * at));
      EXPECT_EQ(m.AddInput(cut, "cut", &info, &error),
                Status::kMalformedProfile);
    }
    Add(m, cpu);
    Add(m, w3c);
    EXPECT_EQ(m.totals().samples, twice.totals().samples) << at;
    EXPECT_EQ(m.totals().time_ns, twice.totals().time_ns) << at;
    const auto got = ByPath(m);
    ASSERT_EQ(got.size(), want.size()) << at;
    for (const auto& kv : want) {
      EXPECT_EQ(got.at(kv.first).count, kv.second.count) << kv.first;
      EXPECT_EQ(got.at(kv.first).time_ns, kv.second.time_ns) << kv.first;
    }
  }
}

TEST(ProfileMerger, OneFunctionAcrossFormats) {
  // The same recording as .cpuprofile, Chrome JSON (webprof's writers) and
  // the original: merged, every stack has exactly 3x the weight count.
  Session s(SessionOptions{1, 1000000, 0});
  CpuProfileImportInfo info;
  std::string error;
  ASSERT_EQ(ImportCpuProfile(Fixture(kCpuProfile), {}, &s, &info, &error),
            Status::kOk);
  ExportInput in;
  in.profile = &s.trace();
  ByteSink chrome, cpu;
  WriteChromeTrace(in, ChromeTraceOptions{}, chrome);
  WriteCpuProfile(in, cpu);

  ProfileMerger once, thrice;
  Add(once, Fixture(kCpuProfile));
  Add(thrice, Fixture(kCpuProfile));
  Add(thrice, chrome.ToString());
  Add(thrice, cpu.ToString());
  auto one = ByPath(once), three = ByPath(thrice);
  ASSERT_EQ(one.size(), three.size());
  for (const auto& kv : one)
    EXPECT_EQ(three[kv.first].count, 3 * kv.second.count) << kv.first;
  EXPECT_EQ(once.merged().frames().size(), thrice.merged().frames().size());
}

TEST(ProfileMerger, MemoryDoesNotGrowWithTheNumberOfInputs) {
  std::string text = Fixture(kCpuProfile);
  ProfileMerger m;
  Add(m, text);
  m.ExportView();
  const size_t after_one = m.memory_bytes();
  const uint32_t stacks = m.merged().stacks().size();
  for (int i = 0; i < 50; ++i) Add(m, text);
  m.ExportView();
  EXPECT_EQ(m.merged().stacks().size(), stacks);
  EXPECT_EQ(m.memory_bytes(), after_one);
  EXPECT_EQ(m.totals().inputs, 51u);
}

TEST(ProfileMerger, SourceMapsDecideIdentity) {
  // Two minified functions of min.js (line 1, columns 10 and 30) are one
  // original function `render` of src/app.js line 5 (names + mappings
  // written by hand: "AAIA" = source 0, line 4, column 0; names[0]).
  const char map[] =
      R"J({"version":3,"sources":["src/app.js"],"names":["render"],"mappings":"SAIAA,oBAAAA"})J";
  const char json[] = R"J({"resources":["https://cdn.test/min.js"],
    "frames":[{"name":"a","resourceId":0,"line":1,"column":10},{"name":"b","resourceId":0,"line":1,"column":30}],
    "stacks":[{"frameId":0},{"frameId":1}],
    "samples":[{"timestamp":0,"stackId":0},{"timestamp":1,"stackId":1}]})J";
  ProfileMerger m;
  std::string error;
  ASSERT_EQ(
      m.AddSourceMap("min.js", map, "https://cdn.test/min.js.map", &error),
      Status::kOk)
      << error;
  Add(m, json);
  auto w = ByPath(m);
  ASSERT_EQ(w.size(), 1u) << w.begin()->first;
  EXPECT_EQ(w["render/"].count, 2u);
  const ProfilerTrace& t = m.merged();
  const Frame& f = t.frames().Get(FrameId(0));
  EXPECT_EQ(t.resource_url(f.resource), "https://cdn.test/src/app.js");
  EXPECT_EQ(f.line, 5u);

  ProfileMerger bad;
  EXPECT_EQ(bad.AddSourceMap("x.js", "{\"version\":2}", "", &error),
            Status::kSourceMapInvalid);
}

TEST(ProfileMerger, AMapAddedLaterAppliesToLaterInputs) {
  // The frames of the first input are remembered (frame_cache.h); a map
  // added after it must still move the same frames of the next input.
  const char map[] =
      R"J({"version":3,"sources":["src/app.js"],"names":["render"],"mappings":"SAIAA,oBAAAA"})J";
  const char json[] = R"J({"resources":["https://cdn.test/min.js"],
    "frames":[{"name":"a","resourceId":0,"line":1,"column":10}],
    "stacks":[{"frameId":0}],
    "samples":[{"timestamp":0,"stackId":0},{"timestamp":1,"stackId":0}]})J";
  ProfileMerger m;
  std::string error;
  Add(m, json);
  ASSERT_EQ(
      m.AddSourceMap("min.js", map, "https://cdn.test/min.js.map", &error),
      Status::kOk)
      << error;
  Add(m, json);
  Add(m, json);
  auto w = ByPath(m);
  EXPECT_EQ(w["a/"].count, 2u);
  EXPECT_EQ(w["render/"].count, 4u);
}

TEST(ProfileMerger, ABadInputChangesNothing) {
  ProfileMerger m;
  Add(m, Fixture(kCpuProfile));
  const MergeTotals before = m.totals();
  const uint32_t stacks = m.merged().stacks().size();
  MergeInputInfo info;
  std::string error;
  EXPECT_EQ(m.AddInput("{\"nodes\":[", "cut.cpuprofile", &info, &error),
            Status::kMalformedProfile);
  EXPECT_EQ(error.rfind("cut.cpuprofile: .cpuprofile: truncated", 0), 0u)
      << error;
  EXPECT_EQ(m.AddInput("{\"hello\":1}", "x.json", &info, &error),
            Status::kInvalidArgument);
  EXPECT_NE(error.find("x.json: not a profile webprof reads"),
            std::string::npos);
  EXPECT_EQ(m.totals().samples, before.samples);
  EXPECT_EQ(m.totals().inputs, before.inputs);
  EXPECT_EQ(m.merged().stacks().size(), stacks);
}

TEST(ProfileMerger, OutputsCarryTheWeights) {
  ProfileMerger m;
  Add(m, Fixture(kCpuProfile));
  Add(m, Fixture(kChromeTrace));
  const MergeTotals& t = m.totals();
  const int64_t total_us = (t.time_ns + 500) / 1000;

  // .cpuprofile: hitCount sums to the count, endTime - startTime is the
  // time; read back, the same totals.
  ByteSink cpu;
  ASSERT_EQ(m.Write(int32_t(ExportFormatId::kCpuProfile), {}, cpu),
            Status::kOk);
  Json p = ParseJson(cpu.ToString());
  double hits = 0;
  for (const Json& n : p["nodes"].arr) hits += n["hitCount"].num;
  EXPECT_EQ(uint64_t(hits), t.samples);
  EXPECT_EQ(int64_t(p["endTime"].num - p["startTime"].num), total_us);
  ProfileMerger again;
  MergeInputInfo back = Add(again, cpu.ToString());
  EXPECT_NEAR(double(back.time_ns), double(t.time_ns), 1000);

  // Chrome JSON: one sample per weighted stack, endTime in the last chunk;
  // read back, the same time.
  ByteSink chrome;
  ASSERT_EQ(m.Write(int32_t(ExportFormatId::kChromeTrace), {}, chrome),
            Status::kOk);
  ProfileMerger again2;
  MergeInputInfo back2 = Add(again2, chrome.ToString());
  EXPECT_EQ(back2.samples, m.weighted_stacks());
  EXPECT_NEAR(double(back2.time_ns), double(t.time_ns), 1000);

  ByteSink pprof, perfetto;
  EXPECT_EQ(m.Write(int32_t(ExportFormatId::kPprof), {}, pprof), Status::kOk);
  EXPECT_EQ(m.Write(int32_t(ExportFormatId::kPerfetto), {}, perfetto),
            Status::kOk);
  EXPECT_GT(pprof.size(), 100u);
  EXPECT_GT(perfetto.size(), 100u);
}

}  // namespace
}  // namespace webprof
