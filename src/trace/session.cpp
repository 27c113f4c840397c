#include "trace/session.h"

#include <cmath>

namespace webprof {

Session::Session(const SessionOptions& options) : options_(options) {
  if (!(options_.sample_interval_ms >= 0) ||
      !std::isfinite(options_.sample_interval_ms))
    options_.sample_interval_ms = 0;
}

Status SampleTimeStatus(double ts, double prev) {
  if (!std::isfinite(ts) || ts < 0) return Status::kInvalidTimestamp;
  if (ts < prev) return Status::kTimestampOutOfOrder;
  return Status::kOk;
}

void Session::Pause() {
  if (state_ == SessionState::kStarted) state_ = SessionState::kPaused;
}

void Session::Resume() {
  if (state_ == SessionState::kPaused) state_ = SessionState::kStarted;
}

Status Session::Precheck(double ts) const {
  if (state_ == SessionState::kStopped) return Status::kStopped;
  if (state_ == SessionState::kPaused) return Status::kPaused;
  const SampleBuffer& samples = trace_.samples();
  return SampleTimeStatus(ts, samples.empty() ? -1 : samples.back().timestamp);
}

bool Session::WouldKeep(double ts) const {
  return Precheck(ts) == Status::kOk &&
         trace_.samples().size() < options_.max_buffer_size;
}

Status Session::TakeSample(double ts, StackId stack) {
  Status s = Precheck(ts);
  if (s != Status::kOk) return s;
  if (!stack.is_none() && !trace_.stacks().Contains(stack))
    return Status::kUnknownStack;
  SampleBuffer& samples = trace_.mutable_samples();
  if (samples.size() >= options_.max_buffer_size) {
    state_ = SessionState::kStopped;
    return Status::kBufferFull;
  }
  samples.Append(Sample{ts, stack});
  return Status::kOk;
}

Status Session::SetSampleStack(size_t index, StackId stack) {
  SampleBuffer& samples = trace_.mutable_samples();
  if (index >= samples.size()) return Status::kInvalidArgument;
  if (!stack.is_none() && !trace_.stacks().Contains(stack))
    return Status::kUnknownStack;
  samples.SetStack(index, stack);
  return Status::kOk;
}

}  // namespace webprof
