#include "trace/profiler_trace.h"

namespace webprof {

ResourceId ProfilerTrace::InternResource(std::string_view url) {
  return ResourceId(resources_.Intern(url).value);
}

FrameId ProfilerTrace::InternFrame(const RawFrame& raw) {
  ResourceId resource = ResourceId::None();
  if (!raw.resource.empty()) {
    resource = InternResource(raw.resource);
    if (resource.is_none()) return FrameId::None();
  }
  return InternFrame(raw, resource);
}

FrameId ProfilerTrace::InternFrame(const RawFrame& raw, ResourceId resource) {
  StringId name = names_.Intern(raw.name);
  if (name.is_none()) return FrameId::None();
  return frames_.Intern(Frame{name, resource, raw.line, raw.column});
}

Status ProfilerTrace::InternFrame(StringId name, ResourceId resource,
                                  uint32_t line, uint32_t column,
                                  FrameId* out) {
  if (!names_.Contains(name)) return Status::kInvalidArgument;
  if (!resource.is_none() && !resources_.Contains(StringId(resource.value)))
    return Status::kUnknownResource;
  *out = frames_.Intern(Frame{name, resource, line, column});
  return out->is_none() ? Status::kTableFull : Status::kOk;
}

StackId ProfilerTrace::InternStack(const FrameId* frames, size_t n) {
  StackId parent = StackId::None();
  for (size_t i = 0; i < n; ++i) {
    if (frames[i].is_none() || !frames_.Contains(frames[i])) continue;
    parent = stacks_.Intern(frames[i], parent);
  }
  return parent;
}

Status ProfilerTrace::InternStack(FrameId frame, StackId parent, StackId* out) {
  if (!frames_.Contains(frame)) return Status::kUnknownFrame;
  if (!parent.is_none() && !stacks_.Contains(parent))
    return Status::kUnknownParent;
  *out = stacks_.Intern(frame, parent);
  return Status::kOk;
}

size_t ProfilerTrace::memory_bytes() const {
  return names_.memory_bytes() + resources_.memory_bytes() +
         frames_.memory_bytes() + stacks_.memory_bytes() +
         samples_.memory_bytes();
}

void ProfilerTrace::Clear() {
  names_.Clear();
  resources_.Clear();
  frames_.Clear();
  stacks_.Clear();
  samples_.Clear();
}

}  // namespace webprof
