#include "source/frame_resolver.h"

namespace webprof {

Status ResolveFrames(const FrameDefinitions& definitions, ProfilerTrace* trace,
                     ResolveStats* stats) {
  const ProfilerTrace& in = *trace;
  ProfilerTrace out;
  ResolveStats st;
  // Resources keep their ids: intern them in the same order.
  for (uint32_t r = 0; r < in.resources().size(); ++r) {
    if (out.InternResource(in.resources().Get(StringId(r))).value != r)
      return Status::kTableFull;
  }
  // Each frame's definition.
  struct Resolved {
    std::string_view name;
    uint32_t line, column;
    bool entry;  // the position of a transformed function's entry check
  };
  const auto& frames = in.frames().rows();
  std::vector<Resolved> resolved(frames.size());
  std::vector<FrameId> frame_map(frames.size(), FrameId::None());
  st.frames_in = static_cast<uint32_t>(frames.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    Resolved r{in.names().Get(f.name), f.line, f.column, false};
    Definition d;
    if (definitions.Of(static_cast<uint32_t>(i), &d)) {
      r = Resolved{d.name, d.line, d.column, d.entry};
      ++st.frames_resolved;
    }
    resolved[i] = r;
  }
  // Frames keep their order; one only entry-check stacks used goes.
  const auto& rows = in.stacks().rows();
  std::vector<bool> used(frames.size(), false);
  for (const auto& row : rows)
    if (!resolved[row.frame.value].entry) used[row.frame.value] = true;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (!used[i]) continue;
    StringId n = out.names().Intern(resolved[i].name);
    if (n.is_none()) return Status::kTableFull;
    Status s = out.InternFrame(n, frames[i].resource, resolved[i].line,
                               resolved[i].column, &frame_map[i]);
    if (s != Status::kOk) return s;
  }
  // Parents precede children, so one forward pass maps every row. A sample
  // taken at a function's entry check is its caller's: the callee has not
  // run yet, the time since the previous check was spent before the call
  // (in the caller, or in builtins it called, e.g. RegExp exec).
  std::vector<StackId> stack_map(rows.size());
  st.stacks_in = static_cast<uint32_t>(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    StackId parent = rows[i].parent.is_none() ? StackId::None()
                                              : stack_map[rows[i].parent.value];
    uint32_t fi = rows[i].frame.value;
    if (resolved[fi].entry) {
      stack_map[i] = parent;
      continue;
    }
    StackId id;
    Status s = out.InternStack(frame_map[fi], parent, &id);
    if (s != Status::kOk) return s;
    stack_map[i] = id;
  }
  in.samples().ForEach([&](const Sample& s) {
    Sample copy = s;
    if (!s.stack.is_none()) copy.stack = stack_map[s.stack.value];
    out.mutable_samples().Append(copy);
  });
  st.frames_out = out.frames().size();
  st.stacks_out = out.stacks().size();
  *trace = std::move(out);
  if (stats) *stats = st;
  return Status::kOk;
}

}  // namespace webprof
