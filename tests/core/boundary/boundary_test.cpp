// The boundary's declarations behave as JS relies on: names, encodings and
// the sampler configuration kinds.
#include "boundary/boundary.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace webprof::boundary
