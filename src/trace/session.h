// A profiling session (W3C JS Self-Profiling, "profiling session").
//
// Holds the state machine started -> paused <-> started -> stopped, the
// sample interval actually used, the time origin, the sample buffer size
// limit and the ProfilerTrace. TakeSample() is the spec's "take a sample"
// minus capturing the stack (the JS sampler captures and the stack parser
// interns it): when the buffer already holds maxBufferSize samples it
// returns kBufferFull once and moves to stopped, so the binding fires
// `samplebufferfull` exactly once; later samples are refused with kStopped.
// Bad input never disturbs what was recorded: a rejected sample changes
// nothing.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "trace/profiler_trace.h"

namespace webprof {

// The one rule for a sample's time, shared by every way samples enter a
// trace (Session::TakeSample, TraceLoader): finite, >= 0 and not before the
// previous sample (`prev_ms` < 0: there is none). Returns kOk,
// kInvalidTimestamp or kTimestampOutOfOrder.
Status SampleTimeStatus(double timestamp_ms, double prev_ms);

enum class SessionState : int32_t { kStarted = 0, kPaused = 1, kStopped = 2 };

struct SessionOptions {
  double sample_interval_ms = 10;  // the interval really used, >= 0
  uint32_t max_buffer_size = 0;    // WebIDL unsigned long
  double time_origin_ms = 0;       // epoch ms of timestamp 0 (metadata)
};

class Session {
 public:
  explicit Session(const SessionOptions& options);

  SessionState state() const { return state_; }
  double sample_interval_ms() const { return options_.sample_interval_ms; }
  uint32_t max_buffer_size() const { return options_.max_buffer_size; }
  double time_origin_ms() const { return options_.time_origin_ms; }

  void Pause();
  void Resume();
  void Stop() { state_ = SessionState::kStopped; }

  // Appends (timestamp, stack). `stack` None = a sample without stackId.
  Status TakeSample(double timestamp_ms, StackId stack);
  // Sets the stack of the sample at `index`, one taken without a stack
  // whose capture was parsed later (deferred_stacks.h); whatever the state
  // now, the sample was kept then. kInvalidArgument for an index past the
  // samples, kUnknownStack for a stack not in the trace; nothing changes.
  Status SetSampleStack(size_t index, StackId stack);
  // Whether TakeSample(timestamp_ms, None) would keep a sample, without any
  // side effect: lets a caller skip interning a stack the session refuses.
  bool WouldKeep(double timestamp_ms) const;

  ProfilerTrace& trace() { return trace_; }
  const ProfilerTrace& trace() const { return trace_; }

 private:
  // TakeSample's checks that come before the stack's: state, then time.
  Status Precheck(double timestamp_ms) const;

  SessionOptions options_;
  SessionState state_ = SessionState::kStarted;
  ProfilerTrace trace_;
};

}  // namespace webprof
