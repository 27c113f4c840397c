// One profiled runtime of the Mozilla JS Profiling proposal (seed 002).
//
// RuntimeProfile is the core half of `RuntimeProfiler` for one runtime
// (realm): the samples (a Session whose buffer limit is maxSamples), the
// frame() annotation slots and the call tree built from them on results().
// It samples through the same StackSampler as the W3C `Profiler` polyfill:
// one captured Error.stack text is parsed once, webprof's own frames are
// dropped, the visible frames are interned. There is no second sampling
// engine: JS decides *when* a sample is due and hands the text over.
//
// Data survives stop(): results() after stop() returns what was collected
// since the last Reset(), as the proposal's example does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "call_tree.h"
#include "frame_annotations.h"
#include "session.h"
#include "stack_sampler.h"

namespace webprof {

class RuntimeProfile {
 public:
  explicit RuntimeProfile(uint32_t max_samples);

  // Configures which frames are webprof's own (see StackSampler).
  StackSampler& sampler() { return sampler_; }

  // Takes one sample of the stack in `text` at `timestamp_ms` (ms since the
  // profile's origin, non-decreasing). Returns kOk, kBufferFull once when
  // maxSamples is reached, then kStopped; a stack that cannot be parsed is
  // still counted (a root sample) and its parse status returned.
  Status Sample(std::string_view text, double timestamp_ms);

  // frame(): the annotation slot of the backtrace in `text`, created on
  // first use. The backtrace is interned even when no sample hits it, so an
  // annotated node appears in results() (with 0 samples if never sampled).
  Status Annotate(std::string_view text, uint32_t* slot);

  // Forgets every sample and annotation slot (reset()).
  void Reset();

  // results(): the call tree as UTF-8 JSON (see CallTree::WriteJson).
  const std::string& ResultsJson();

  uint32_t max_samples() const { return max_samples_; }
  size_t sample_count() const { return session_->trace().samples().size(); }
  uint32_t annotation_count() const { return annotations_.size(); }
  // Samples offered after maxSamples was reached.
  uint64_t samples_dropped() const { return dropped_; }

 private:
  uint32_t max_samples_;
  std::unique_ptr<Session> session_;
  StackSampler sampler_;
  FrameAnnotations annotations_;
  CallTree tree_;
  std::string json_;
  uint64_t dropped_ = 0;
};

}  // namespace webprof
