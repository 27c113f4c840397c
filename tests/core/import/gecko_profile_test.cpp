// The Gecko profile importer on a real profile: Firefox ESR recorded with
// MOZ_PROFILER_STARTUP (interval 1 ms, features js,stackwalk) while
// e2e/pages/record/hot-inline.html ran its 40 ms hot loop every 45 ms
// (tests/fixtures/gecko/firefox-esr/hot-inline.json: the page's content
// process and one other content process; markers, libs and the parent
// process's threads trimmed away, nothing else changed). The page ran its
// loop from 19.5 s to 20.9 s of its process's clock.
#include "import/gecko_profile.h"

#include <gtest/gtest.h>

#include <string>

#include "export/summary.h"
#include "support/import_fixture.h"

namespace webprof {
namespace {

constexpr char kPage[] = "http://127.0.0.1:46307/hot-inline.html";
constexpr double kPageProcessStart = 1796133328017.1099;  // its meta.startTime

std::string Fixture() {
  return testing::ReadFixture("gecko/firefox-esr/hot-inline.json");
}

using Imported = testing::SessionImport<GeckoImportInfo>;

void Import(const std::string& json, const GeckoImportOptions& o, Imported* r) {
  r->status = ImportGeckoProfile(json, o, &r->session, &r->info, &r->error);
}

GeckoImportOptions PageWindow(double from_ms, double to_ms) {
  GeckoImportOptions o;
  o.page_url = kPage;
  o.window_start_ms = kPageProcessStart + from_ms;
  o.window_end_ms = kPageProcessStart + to_ms;
  return o;
}

TEST(GeckoProfile, SniffsItsFormat) {
  EXPECT_TRUE(IsGeckoProfile(Fixture()));
  EXPECT_FALSE(IsGeckoProfile("{\"traceEvents\":[]}"));
  EXPECT_FALSE(IsGeckoProfile("[1,2]"));
}

TEST(GeckoProfile, ThePageThreadInTheWindowWithTheHotFunction) {
  Imported r;
  Import(Fixture(), PageWindow(19500, 20900), &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(r.info.pid, 23196);
  EXPECT_EQ(r.info.thread_name, "GeckoMain");
  EXPECT_EQ(r.info.process_name, "Web Content");
  EXPECT_DOUBLE_EQ(r.info.interval_ms, 1);
  EXPECT_EQ(r.info.thread_samples, 4236u);
  const ProfilerTrace& t = r.session.trace();
  ASSERT_GT(r.info.samples, 400u);
  EXPECT_EQ(t.samples().size(), r.info.samples);
  // Timestamps count from the window start, in order, inside the window.
  double prev = 0;
  t.samples().ForEach([&](const Sample& s) {
    EXPECT_GE(s.timestamp, prev);
    EXPECT_LE(s.timestamp, 1400);
    prev = s.timestamp;
  });
  // Only the page's script is a resource: no chrome:/resource: JS.
  ASSERT_EQ(t.resources().size(), 1u);
  EXPECT_EQ(t.resource_url(ResourceId(0)), kPage);

  TraceSummary sum = SummarizeTrace(t, 5);
  ASSERT_FALSE(sum.rows.empty());
  const Frame& hot = t.frames().Get(sum.rows[0].frame);
  EXPECT_EQ(t.frame_name(sum.rows[0].frame), "hotInline");
  EXPECT_EQ(hot.line, 5u);  // the definition, as Chromium reports it
  EXPECT_EQ(hot.column, 21u);
  EXPECT_GE(sum.rows[0].self * 100, sum.samples * 40u);
  for (const SummaryRow& row : sum.rows) EXPECT_LE(row.self, row.total);
}

TEST(GeckoProfile, OnlyPageJsFramesTopLevelAtItsScriptStart) {
  Imported r;
  Import(Fixture(), PageWindow(0, 1e9), &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  const ProfilerTrace& t = r.session.trace();
  bool top = false;
  for (uint32_t i = 0; i < t.frames().size(); ++i) {
    const Frame& f = t.frames().Get(FrameId(i));
    // Labels (Performance.now, C++ functions) and addresses are dropped.
    EXPECT_FALSE(f.resource.is_none()) << t.frame_name(FrameId(i));
    // The inline <script>'s top level: its start in the document.
    if (t.frame_name(FrameId(i)).empty()) top = f.line == 4 && f.column == 9;
  }
  EXPECT_TRUE(top);
}

TEST(GeckoProfile, WithoutAUrlTheBusiestContentThread) {
  Imported r;
  Import(Fixture(), GeckoImportOptions(), &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(r.info.pid, 23196);
  EXPECT_EQ(r.info.samples, 4236u);
}

TEST(GeckoProfile, TimeOriginAndAnEmptyWindow) {
  Imported r;
  GeckoImportOptions o = PageWindow(20000, 20100);
  o.time_origin_ms = kPageProcessStart;
  Import(Fixture(), o, &r);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  ASSERT_GT(r.info.samples, 0u);
  EXPECT_GE(r.session.trace().samples()[0].timestamp, 20000);
  EXPECT_LE(r.session.trace().samples().back().timestamp, 20100);
  Imported none;
  Import(Fixture(), PageWindow(1e8, 1e8 + 1), &none);
  EXPECT_EQ(none.status, Status::kOk);
  EXPECT_EQ(none.info.samples, 0u);
}

TEST(GeckoProfile, AnotherPageIsNotInTheProfile) {
  Imported r;
  GeckoImportOptions o;
  o.page_url = "https://elsewhere.test/";
  Import(Fixture(), o, &r);
  EXPECT_EQ(r.status, Status::kNoProfileThread);
  EXPECT_NE(r.error.find("none of its 2 content-process main threads"),
            std::string::npos)
      << r.error;
  // Same origin, another path (e.g. after a redirect): found.
  o.page_url = "http://127.0.0.1:46307/other.html";
  Imported same;
  Import(Fixture(), o, &same);
  EXPECT_EQ(same.status, Status::kOk) << same.error;
}

TEST(GeckoProfile, TruncatedProfilesAreRefusedWithNothingAdded) {
  std::string json = Fixture();
  for (size_t cut : {size_t(0), size_t(1), size_t(100), json.size() / 3,
                     json.size() / 2, json.size() - 2, json.size() - 1}) {
    Imported r;
    Import(json.substr(0, cut), PageWindow(0, 1e9), &r);
    EXPECT_EQ(r.status, Status::kMalformedProfile) << cut;
    EXPECT_EQ(r.error.rfind("Gecko profile: ", 0), 0u) << r.error;
    EXPECT_EQ(r.session.trace().samples().size(), 0u);
    EXPECT_EQ(r.session.trace().frames().size(), 0u);
  }
  Imported r;
  Import(json.substr(0, json.size() / 2), PageWindow(0, 1e9), &r);
  EXPECT_NE(r.error.find("truncated at byte"), std::string::npos) << r.error;
}

TEST(GeckoProfile, BadTablesAreRefused) {
  auto profile = [](const std::string& thread) {
    return "{\"meta\":{\"interval\":1,\"startTime\":0},\"threads\":[],"
           "\"processes\":[{\"meta\":{\"startTime\":0},\"pages\":[],"
           "\"threads\":[{\"name\":\"GeckoMain\",\"processType\":\"tab\"," +
           thread + "}]}]}";
  };
  const std::string tables =
      "\"stringTable\":[\"f (https://a/x.js:1:1)\"],"
      "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[LOC]]},"
      "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},"
      "\"data\":[[null,0],[PREFIX,0]]},"
      "\"samples\":{\"schema\":{\"stack\":0,\"time\":1},"
      "\"data\":[[1,5],[STACK,6]]}";
  auto with = [&](const char* loc, const char* prefix, const char* stack) {
    std::string s = tables;
    s.replace(s.find("LOC"), 3, loc);
    s.replace(s.find("PREFIX"), 6, prefix);
    s.replace(s.find("STACK"), 5, stack);
    return profile(s);
  };
  Imported good;
  Import(with("0", "0", "0"), GeckoImportOptions(), &good);
  ASSERT_EQ(good.status, Status::kOk) << good.error;
  EXPECT_EQ(good.info.samples, 2u);
  EXPECT_EQ(good.session.trace().stacks().size(), 2u);  // f, f>f
  for (auto [loc, prefix, stack, says] :
       {std::tuple{"7", "0", "0", "location outside the stringTable"},
        std::tuple{"0", "1", "0", "prefix not before it"},
        std::tuple{"0", "0", "9", "unknown stack"},
        std::tuple{"\"x\"", "0", "0", "location outside"}}) {
    Imported r;
    Import(with(loc, prefix, stack), GeckoImportOptions(), &r);
    EXPECT_EQ(r.status, Status::kMalformedProfile) << loc << prefix << stack;
    EXPECT_NE(r.error.find(says), std::string::npos) << r.error;
    EXPECT_EQ(r.session.trace().samples().size(), 0u);
  }
  Imported no_schema;
  Import(profile("\"samples\":{\"data\":[]}"), GeckoImportOptions(),
         &no_schema);
  EXPECT_EQ(no_schema.status, Status::kMalformedProfile);
  EXPECT_NE(no_schema.error.find("no \"stack\" column"), std::string::npos)
      << no_schema.error;
  Imported not_gecko;
  Import("{\"traceEvents\":[]}", GeckoImportOptions(), &not_gecko);
  EXPECT_EQ(not_gecko.status, Status::kMalformedProfile);
  EXPECT_NE(not_gecko.error.find("\"meta\" and \"threads\""),
            std::string::npos);
}

}  // namespace
}  // namespace webprof
