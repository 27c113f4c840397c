#include "export/trace_trim.h"

#include <vector>

namespace webprof {
namespace {

constexpr uint32_t kUnused = 0xFFFFFFFFu;

bool Empty(const ProfilerTrace& t) {
  return t.names().size() == 0 && t.resources().size() == 0 &&
         t.frames().size() == 0 && t.stacks().size() == 0 &&
         t.samples().empty();
}

// Whether sample `s` may be kept at all (a stack id past the table would be
// a broken input; it is treated as idle rather than trusted).
bool Eligible(const Sample& s, const ProfilerTrace& in, bool drop_idle) {
  bool has_stack = !s.stack.is_none() && in.stacks().Contains(s.stack);
  return has_stack || !drop_idle;
}

}  // namespace

Status TrimTrace(const ProfilerTrace& in, const TrimOptions& options,
                 ProfilerTrace* out, TrimResult* result) {
  if (out == nullptr || result == nullptr || !Empty(*out))
    return Status::kInvalidArgument;
  *result = TrimResult{};
  const SampleBuffer& samples = in.samples();

  uint64_t eligible = 0;
  for (size_t i = 0; i < samples.size(); ++i)
    if (Eligible(samples[i], in, options.drop_idle)) ++eligible;
  result->idle_dropped = samples.size() - eligible;
  const uint64_t keep = options.max_samples && eligible > options.max_samples
                            ? options.max_samples
                            : eligible;
  result->thinned_dropped = eligible - keep;

  // Pass 1: mark the stack rows the kept samples reach. A walk stops at the
  // first row already marked: its ancestors are marked too.
  std::vector<uint32_t> stack_map(in.stacks().size(), kUnused);
  constexpr uint32_t kMarked = kUnused - 1;
  auto kept = [&](uint64_t k) {  // the k-th eligible sample stays
    return keep == eligible || (k + 1) * keep / eligible > k * keep / eligible;
  };
  uint64_t k = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    if (!Eligible(s, in, options.drop_idle)) continue;
    if (!kept(k++)) continue;
    for (StackId at = s.stack; !at.is_none() && in.stacks().Contains(at) &&
                               stack_map[at.value] == kUnused;
         at = in.stacks().Get(at).parent)
      stack_map[at.value] = kMarked;
  }

  // Pass 2: re-intern marked rows in order (a parent's row precedes its
  // child's in `in`, so it is mapped by the time the child needs it). Only
  // reached frames, and through them names and resources, enter `out`.
  Status status = Status::kOk;
  std::vector<uint32_t> frame_map(in.frames().size(), kUnused);
  for (uint32_t i = 0; i < stack_map.size(); ++i) {
    if (stack_map[i] == kUnused) continue;
    const Stack& row = in.stacks().Get(StackId(i));
    uint32_t& frame = frame_map[row.frame.value];
    if (frame == kUnused) {
      const Frame& f = in.frames().Get(row.frame);
      RawFrame raw{in.names().Get(f.name),
                   f.resource.is_none() ? std::string_view()
                                        : in.resource_url(f.resource),
                   f.line, f.column};
      frame = out->InternFrame(raw).value;
    }
    StackId parent = row.parent.is_none()
                         ? StackId::None()
                         : StackId(stack_map[row.parent.value]);
    if (frame == FrameId::None().value) {
      // The frame did not fit: the stack is its parent's, as the caps say.
      stack_map[i] = parent.value;
      status = Status::kTableFull;
      continue;
    }
    StackId id;
    if (out->InternStack(FrameId(frame), parent, &id) != Status::kOk)
      return Status::kInvalidArgument;  // unreachable: both ids are out's
    if (out->stacks().dropped()) status = Status::kTableFull;
    stack_map[i] = id.value;
  }

  k = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    if (!Eligible(s, in, options.drop_idle)) continue;
    if (!kept(k++)) continue;
    bool has_stack = !s.stack.is_none() && in.stacks().Contains(s.stack);
    out->mutable_samples().Append(
        {s.timestamp,
         has_stack ? StackId(stack_map[s.stack.value]) : StackId::None()});
  }
  return status;
}

}  // namespace webprof
