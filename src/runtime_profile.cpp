#include "runtime_profile.h"

namespace webprof {

namespace {
std::unique_ptr<Session> NewSession(uint32_t max_samples) {
  // The interval is JS's business (it decides when a sample is due); the
  // session only enforces the buffer limit and timestamp order.
  return std::make_unique<Session>(SessionOptions{0, max_samples, 0});
}
}  // namespace

RuntimeProfile::RuntimeProfile(uint32_t max_samples)
    : max_samples_(max_samples), session_(NewSession(max_samples)) {}

Status RuntimeProfile::Sample(std::string_view text, double timestamp_ms) {
  Session* s = session_.get();
  Status result = Status::kOk;
  Status parsed =
      sampler_.Sample(text, StackFormat::kAuto, timestamp_ms, &s, 1, &result);
  if (result == Status::kBufferFull || result == Status::kStopped) ++dropped_;
  if (result != Status::kOk) return result;
  return parsed;
}

Status RuntimeProfile::Annotate(std::string_view text, uint32_t* slot) {
  Status st = sampler_.Capture(text, StackFormat::kAuto);
  if (st != Status::kOk) return st;  // nothing recorded for unreadable text
  *slot = annotations_.SlotOf(sampler_.InternInto(&session_->trace()));
  return Status::kOk;
}

void RuntimeProfile::Reset() {
  session_ = NewSession(max_samples_);
  annotations_.Clear();
  dropped_ = 0;
}

const std::string& RuntimeProfile::ResultsJson() {
  tree_.Build(session_->trace(), &annotations_);
  json_.clear();
  tree_.WriteJson(session_->trace(), &json_);
  return json_;
}

}  // namespace webprof
