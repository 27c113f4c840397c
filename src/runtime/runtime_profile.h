// One profiled runtime of the Mozilla JS Profiling proposal (seed 002).
//
// The samples of a runtime are taken by the W3C Profiler polyfill's sampler
// (js/sampler.mjs -> wasm/bind_profiler.cpp: one StackSampler per Wasm
// instance feeding every attached Session): RuntimeProfiler registers one
// more Session there, so there is one sampling engine. RuntimeProfile adds
// what seed 002 needs on top of that Session's ProfilerTrace: the frame()
// annotation slots and the results() call tree.
//
// frame() is not a sample, so its backtrace does not go through the
// sampler's Sample(); it is parsed and filtered by a StackSampler configured
// like the polyfill's (own-frame marker/URL prefix, CORS-muted scripts) and
// interned into the same trace, so annotated backtraces share the trace's
// stack rows with sampled ones.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/call_tree.h"
#include "runtime/frame_annotations.h"
#include "sampling/stack_sampler.h"
#include "source/frame_definitions.h"
#include "trace/profiler_trace.h"

namespace webprof {

class RuntimeProfile {
 public:
  // Filters frame() backtraces (configure like the polyfill's sampler).
  StackSampler& sampler() { return sampler_; }
  const StackSampler& sampler() const { return sampler_; }

  // frame(): the annotation slot of the backtrace in `text`, interned into
  // `trace` and created on first use. The backtrace's stack row exists even
  // if no sample hits it, so the annotated node appears in results() (with
  // 0 samples). kUnclassifiedScript: nothing changed; classify the scripts
  // in sampler().unclassified_scripts() and call again. Parse errors are
  // returned and record nothing.
  Status Annotate(std::string_view text, ProfilerTrace* trace, uint32_t* slot);

  // Forgets every slot (reset(): the trace is replaced at the same time).
  void ClearAnnotations() { annotations_.Clear(); }
  uint32_t annotation_count() const { return annotations_.size(); }

  // results(): the call tree of `trace` with this profile's slots, as UTF-8
  // JSON (see CallTree::WriteJson); functions get their definition lines
  // from `definitions` (of `trace`'s frames; may be null). Valid until the
  // next call.
  const std::string& ResultsJson(const ProfilerTrace& trace,
                                 const FrameDefinitions* definitions = nullptr);

 private:
  StackSampler sampler_;
  FrameAnnotations annotations_;
  CallTree tree_;
  std::string json_;
};

}  // namespace webprof
