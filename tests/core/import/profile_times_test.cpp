// The two importers of other samplers' profiles take times by one rule
// (base/time_units.h ProfileTimeProblem): the .cpuprofile's startTime,
// endTime and timeOrigin (µs) and the Gecko profile's meta.startTime and
// timeOrigin (Unix ms) are refused alike when not finite, negative or past
// 2^53 µs, with the same words; 0 and 2^53 µs are times.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "base/time_units.h"
#include "import/cpuprofile.h"
#include "import/gecko_profile.h"
#include "support/import_fixture.h"

namespace webprof {
namespace {

using CpuImport = testing::SessionImport<CpuProfileImportInfo>;
using GeckoImport = testing::SessionImport<GeckoImportInfo>;

// One sample of f, 1 ms after the start.
std::string CpuProfile(const std::string& start_time) {
  return R"J({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":"u.js"}}],)J"
         R"J("startTime":)J" +
         start_time + R"J(,"samples":[1],"timeDeltas":[1000]})J";
}
std::string GeckoProfile(const std::string& start_time) {
  return "{\"meta\":{\"interval\":1,\"startTime\":" + start_time +
         "},\"threads\":[],\"processes\":[{\"meta\":{\"startTime\":" +
         start_time +
         "},\"pages\":[],\"threads\":[{\"name\":\"GeckoMain\","
         "\"processType\":\"tab\",\"stringTable\":[\"f (https://a/x.js:1:1)\"],"
         "\"frameTable\":{\"schema\":{\"location\":0},\"data\":[[0]]},"
         "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},"
         "\"data\":[[null,0]]},\"samples\":{\"schema\":{\"stack\":0,"
         "\"time\":1},\"data\":[[0,1]]}}]}]}";
}

void ImportCpu(const std::string& json, double origin_us, CpuImport* r) {
  CpuProfileImportOptions o;
  o.time_origin_us = origin_us;
  r->status = ImportCpuProfile(json, o, &r->session, &r->info, &r->error);
}
void ImportGecko(const std::string& json, double origin_ms, GeckoImport* r) {
  GeckoImportOptions o;
  o.time_origin_ms = origin_ms;
  r->status = ImportGeckoProfile(json, o, &r->session, &r->info, &r->error);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(ProfileTimes, BadTimeOriginsAreRefusedAlikeByBothImporters) {
  // The same time in each importer's unit: µs, ms.
  const struct {
    double us;
    const char* says;
  } bad[] = {{kInf, "timeOrigin is not a finite number"},
             {-kInf, "timeOrigin is not a finite number"},
             {-1000, "timeOrigin is negative"},
             {kMaxProfileTimeUs * 2, "timeOrigin is past 2^53 µs"}};
  for (const auto& b : bad) {
    CpuImport cpu;
    ImportCpu(CpuProfile("0"), b.us, &cpu);
    GeckoImport gecko;
    ImportGecko(GeckoProfile("0"), b.us / 1000, &gecko);
    for (auto [status, error, samples] :
         {std::tuple{cpu.status, cpu.error,
                     cpu.session.trace().samples().size()},
          std::tuple{gecko.status, gecko.error,
                     gecko.session.trace().samples().size()}}) {
      EXPECT_EQ(status, Status::kInvalidArgument) << b.us;
      EXPECT_EQ(error.rfind(b.says, 0), 0u) << error;
      EXPECT_EQ(samples, 0u);
    }
  }
  // A finite Gecko time whose µs overflow a double is past 2^53 µs, not
  // "not a finite number" (in the options and in the profile).
  GeckoImport huge;
  ImportGecko(GeckoProfile("0"), 1e306, &huge);
  EXPECT_EQ(huge.error.rfind("timeOrigin is past 2^53 µs", 0), 0u)
      << huge.error;
  GeckoImport huge_start;
  ImportGecko(GeckoProfile("1e306"), kNaN, &huge_start);
  EXPECT_NE(huge_start.error.find("meta.startTime is past 2^53 µs"),
            std::string::npos)
      << huge_start.error;
  // Not given (NaN), 0 and 2^53 µs are times.
  for (double us : {kNaN, 0.0, kMaxProfileTimeUs}) {
    CpuImport cpu;
    ImportCpu(CpuProfile("0"), us, &cpu);
    EXPECT_EQ(cpu.status, Status::kOk) << us << ": " << cpu.error;
    GeckoImport gecko;
    ImportGecko(GeckoProfile("0"), us / 1000, &gecko);
    EXPECT_EQ(gecko.status, Status::kOk) << us << ": " << gecko.error;
  }
}

TEST(ProfileTimes, BadStartTimesInTheProfileAreRefusedAlike) {
  const struct {
    const char* us;  // the start time in µs, and in ms for Gecko
    const char* ms;
    double value_us;
    const char* says;
  } bad[] = {{"-1000", "-1", -1000, "is negative"},
             {"1e300", "1e297", 1e300, "is past 2^53 µs"}};
  for (const auto& b : bad) {
    CpuImport cpu;
    ImportCpu(CpuProfile(b.us), kNaN, &cpu);
    EXPECT_EQ(cpu.status, Status::kMalformedProfile) << b.us;
    EXPECT_EQ(cpu.error, std::string(".cpuprofile: \"startTime\" ") +
                             ProfileTimeProblem(b.value_us))
        << cpu.error;
    GeckoImport gecko;
    ImportGecko(GeckoProfile(b.ms), kNaN, &gecko);
    EXPECT_EQ(gecko.status, Status::kMalformedProfile) << b.ms;
    EXPECT_NE(gecko.error.find(std::string("meta.startTime ") +
                               ProfileTimeProblem(b.value_us)),
              std::string::npos)
        << gecko.error;
    EXPECT_NE(gecko.error.find(b.says), std::string::npos);
    EXPECT_EQ(cpu.session.trace().samples().size(), 0u);
    EXPECT_EQ(gecko.session.trace().samples().size(), 0u);
  }
  CpuImport end;
  ImportCpu(
      R"J({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":"u.js"}}],)J"
      R"J("startTime":0,"endTime":-5,"samples":[1],"timeDeltas":[1]})J",
      kNaN, &end);
  EXPECT_EQ(end.error,
            std::string(".cpuprofile: \"endTime\" ") + ProfileTimeProblem(-5));
  // A real Unix-ms start (Firefox writes these) is a time.
  GeckoImport unix_ms;
  ImportGecko(GeckoProfile("1796133328017.1099"), kNaN, &unix_ms);
  EXPECT_EQ(unix_ms.status, Status::kOk) << unix_ms.error;
  EXPECT_EQ(unix_ms.info.samples, 1u);
}

}  // namespace
}  // namespace webprof
