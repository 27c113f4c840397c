#include "source/frame_resolver.h"

namespace webprof {

bool FindDefinition(const SourceScan& scan, uint32_t line, uint32_t column,
                    Definition* out) {
  if (const FunctionDefinition* d = scan.Resolve(line, column)) {
    *out = Definition{d->name, d->definition.line, d->definition.column, false};
    return true;
  }
  SourcePosition start;
  if (!scan.ScriptStart(line, column, &start)) return false;
  // Top-level code: one frame per script, at its start.
  *out = Definition{"", start.line, start.column, true};
  return true;
}

Status ResolveFrames(const std::vector<const SourceScan*>& scans,
                     ProfilerTrace* trace, ResolveStats* stats) {
  const ProfilerTrace& in = *trace;
  ProfilerTrace out;
  ResolveStats st;
  // Resources keep their ids: intern them in the same order.
  for (uint32_t r = 0; r < in.resources().size(); ++r) {
    if (out.InternResource(in.resources().Get(StringId(r))).value != r)
      return Status::kTableFull;
  }
  const auto& frames = in.frames().rows();
  std::vector<FrameId> frame_map(frames.size());
  st.frames_in = static_cast<uint32_t>(frames.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    std::string_view name = in.names().Get(f.name);
    uint32_t line = f.line, column = f.column;
    const SourceScan* scan =
        !f.resource.is_none() && f.resource.value < scans.size()
            ? scans[f.resource.value]
            : nullptr;
    Definition d;
    if (scan && line > 0 && FindDefinition(*scan, line, column, &d)) {
      name = d.name;
      line = d.line;
      column = d.column;
      ++st.frames_resolved;
    }
    StringId n = out.names().Intern(name);
    if (n.is_none()) return Status::kTableFull;
    FrameId id;
    Status s = out.InternFrame(n, f.resource, line, column, &id);
    if (s != Status::kOk) return s;
    frame_map[i] = id;
  }
  // Parents precede children, so one forward pass maps every row.
  const auto& rows = in.stacks().rows();
  std::vector<StackId> stack_map(rows.size());
  st.stacks_in = static_cast<uint32_t>(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    StackId parent = rows[i].parent.is_none() ? StackId::None()
                                              : stack_map[rows[i].parent.value];
    StackId id;
    Status s = out.InternStack(frame_map[rows[i].frame.value], parent, &id);
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
