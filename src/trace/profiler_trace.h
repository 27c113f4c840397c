// The ProfilerTrace of the W3C spec: resources, frames, stacks, samples.
//
// Owns the four interned tables plus the string table for frame names. The
// spec's "get an element ID" is each table's Intern(); "get a stack ID" is
// InternStack() over frames listed outermost first, skipping frames that map
// to nothing (FrameId None: other realm, CORS-muted script, dropped by a cap).
// Resources are URLs and are interned as strings, so a ResourceId is a row of
// `resources`.
#pragma once

#include <string_view>

#include "base/ids.h"
#include "base/status.h"
#include "trace/frame.h"
#include "trace/sample.h"
#include "trace/stack.h"
#include "trace/string_table.h"

namespace webprof {

class ProfilerTrace {
 public:
  ResourceId InternResource(std::string_view url);
  // A frame with an empty resource has no resourceId (and keeps its line and
  // column only if given; callers pass 0 for builtins).
  FrameId InternFrame(const RawFrame& raw);
  // The same with raw.resource already interned as `resource` (None when
  // it is empty): a stack sampler resolves a run of frames of one script
  // once.
  FrameId InternFrame(const RawFrame& raw, ResourceId resource);
  // Validating form used by bindings: unknown resource -> kUnknownResource.
  Status InternFrame(StringId name, ResourceId resource, uint32_t line,
                     uint32_t column, FrameId* out);
  // Walks `frames[0..n)` outermost first; None entries are skipped.
  StackId InternStack(const FrameId* outermost_first, size_t n);
  // One step of a prefix walk; validates both ids.
  Status InternStack(FrameId frame, StackId parent, StackId* out);

  StringTable& names() { return names_; }
  const StringTable& names() const { return names_; }
  const StringTable& resources() const { return resources_; }
  const FrameTable& frames() const { return frames_; }
  const StackTable& stacks() const { return stacks_; }
  const SampleBuffer& samples() const { return samples_; }
  SampleBuffer& mutable_samples() { return samples_; }

  std::string_view resource_url(ResourceId id) const {
    return resources_.Get(StringId(id.value));
  }
  std::string_view frame_name(FrameId id) const {
    return names_.Get(frames_.Get(id).name);
  }
  // Bytes held by all tables (for the memory benchmarks).
  size_t memory_bytes() const;
  void Clear();

 private:
  StringTable names_;
  StringTable resources_;
  FrameTable frames_;
  StackTable stacks_;
  SampleBuffer samples_;
};

}  // namespace webprof
