// The boundary's declarations behave as JS relies on: names, encodings and
// the sampler configuration kinds.
#include "boundary/boundary.h"

#include <gtest/gtest.h>

#include <string>

#include "export/json_check.h"

namespace webprof::boundary {
namespace {

TEST(Boundary, SessionStateNamesAreTheOnesJsShows) {
  EXPECT_STREQ(SessionStateName(SessionState::kStarted), "started");
  EXPECT_STREQ(SessionStateName(SessionState::kPaused), "paused");
  EXPECT_STREQ(SessionStateName(SessionState::kStopped), "stopped");
}

TEST(Boundary, EncodedStatusesAreBelowNoIdAndDecodeBack) {
  // Every failure (Ok is never encoded: an id result is then an id).
  for (int32_t i = 1; i < static_cast<int32_t>(Status::kCount); ++i) {
    int32_t r = EncodeStatus(static_cast<Status>(i));
    EXPECT_LT(r, kNoId);
    EXPECT_EQ(kNoId - r, i);  // js/core/boundary.mjs statusOfId
  }
}

TEST(Boundary, ConfigureSamplerAppliesEachKind) {
  StackSampler s;
  EXPECT_EQ(
      ConfigureSampler(s, int32_t(SamplerConfig::kOwnNameMarker), "__own$"),
      Status::kOk);
  EXPECT_EQ(
      ConfigureSampler(s, int32_t(SamplerConfig::kRequireClassified), "on"),
      Status::kOk);
  Session session(SessionOptions{1, 10, 0});
  Session* sessions[] = {&session};
  Status result = Status::kOk;
  const std::string stack =
      "Error\n    at work (https://a.test/app.js:1:2)\n"
      "    at __own$probe (https://a.test/app.js:3:4)\n";
  // Unclassified script: refused until it is classified.
  EXPECT_EQ(s.Sample(stack, StackFormat::kAuto, 1, sessions, 1, &result),
            Status::kUnclassifiedScript);
  EXPECT_EQ(ConfigureSampler(s, int32_t(SamplerConfig::kNotMuted),
                             "https://a.test/app.js"),
            Status::kOk);
  EXPECT_EQ(s.Sample(stack, StackFormat::kAuto, 2, sessions, 1, &result),
            Status::kOk);
  EXPECT_EQ(session.trace().samples().size(), 1u);
  // The own-marker frame was dropped: one frame, `work`.
  EXPECT_EQ(session.trace().frames().size(), 1u);
}

TEST(Boundary, UnknownSamplerConfigKindIsInvalid) {
  StackSampler s;
  EXPECT_EQ(ConfigureSampler(s, 99, "x"), Status::kInvalidArgument);
  EXPECT_EQ(ConfigureSampler(s, -1, "x"), Status::kInvalidArgument);
}

TEST(Boundary, DeclarationsJsonIsOneValidObjectJsReadsByName) {
  const std::string json = DeclarationsJson();
  ASSERT_TRUE(IsValidJsonValue(json)) << json;
  // What js/core/boundary.mjs reads: codes by name, messages by code, ids,
  // and records as field indices in scalars.
  EXPECT_NE(json.find("\"BufferFull\":" +
                      std::to_string(static_cast<int>(Status::kBufferFull))),
            std::string::npos);
  EXPECT_NE(json.find("\"statusText\":[\"ok\",\"timestamp must be"),
            std::string::npos);
  EXPECT_NE(json.find("\"sessionStates\":[\"started\",\"paused\",\"stopped\"]"),
            std::string::npos);
  EXPECT_NE(json.find("\"noId\":-1,\"noneU32\":4294967295,"),
            std::string::npos);
  EXPECT_NE(json.find("\"sampleRow\":{\"timestamp\":0,\"stack\":1,\"size\":2}"),
            std::string::npos);
  EXPECT_NE(json.find("\"markRow\":{\"name\":0,\"timestamp\":1,\"info\":2,"
                      "\"boundary\":3,\"size\":4}"),
            std::string::npos);
  EXPECT_NE(json.find("\"consoleFilter\":{\"None\":0,\"Prefix\":1,"
                      "\"Allowed\":2}"),
            std::string::npos);
  // One message per status: as many strings as codes.
  size_t open = json.find("\"statusText\":[");
  size_t close = json.find(']', open);
  size_t strings = 0;
  for (size_t i = open + 14; i < close; ++i) strings += json[i] == '"';
  EXPECT_EQ(strings, 2u * static_cast<size_t>(Status::kCount));
}

TEST(Boundary, ExportFormatsJsonListsTheRegistrysBuiltinsInIdOrder) {
  const std::string json = ExportFormatsJson();
  ASSERT_TRUE(IsValidJsonValue(json)) << json;
  // What js/export/export.mjs lists before the writers' module is loaded:
  // every built-in format as the registry has it, in id order.
  size_t at = 0;
  for (const ExportFormat& f : ExportFormats()) {
    std::string entry = "{\"id\":" + std::to_string(f.id) + ",\"key\":\"" +
                        f.key + "\",\"name\":\"" + f.name +
                        "\",\"fileStem\":\"" + f.file_stem +
                        "\",\"extension\":\"" + f.extension +
                        "\",\"mimeType\":\"" + f.mime_type + "\"}";
    size_t found = json.find(entry);
    ASSERT_NE(found, std::string::npos) << entry;
    EXPECT_GE(found, at) << entry;
    at = found;
  }
  // Not in the declarations every build (the probes' own core) carries.
  EXPECT_EQ(DeclarationsJson().find("pftrace"), std::string::npos);
}

}  // namespace
}  // namespace webprof::boundary
