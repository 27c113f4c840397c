#include "export/format_cpuprofile.h"

#include <vector>

#include "export/cpu_profile_nodes.h"
#include "export/json_writer.h"

namespace webprof {
namespace {

// Children of every node as compressed sparse rows, indexed by node id.
struct ChildLists {
  std::vector<uint32_t> begin;  // node id -> first index into `child`
  std::vector<int64_t> child;   // node ids

  ChildLists(const StackTable& stacks, bool has_program) {
    size_t nodes = stacks.size() + 3;
    std::vector<uint32_t> count(nodes + 1, 0);
    auto parent_of = [&](uint32_t s) {
      StackId p = stacks.Get(StackId(s)).parent;
      return p.is_none() ? kRootNodeId : NodeIdForStack(p);
    };
    if (has_program) ++count[kRootNodeId];
    for (uint32_t s = 0; s < stacks.size(); ++s) ++count[parent_of(s)];
    begin.assign(nodes + 1, 0);
    for (size_t i = 0; i < nodes; ++i) begin[i + 1] = begin[i] + count[i];
    child.resize(begin[nodes]);
    std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
    if (has_program) child[fill[kRootNodeId]++] = kProgramNodeId;
    for (uint32_t s = 0; s < stacks.size(); ++s)
      child[fill[parent_of(s)]++] = NodeIdForStack(StackId(s));
  }
};

void WriteNode(JsonWriter& w, const ProfilerTrace& p, CallFrameCache& frames,
               int64_t id, FrameId frame, std::string_view name, uint64_t hits,
               const ChildLists& kids) {
  w.BeginObject();
  w.Key("id");
  w.Int(id);
  if (frame.is_none())
    WriteCallFrame(w, p, frame, name, ScriptIdStyle::kString);
  else
    frames.Write(w, frame);
  w.Key("hitCount");
  w.Int(static_cast<int64_t>(hits));
  w.Key("children");
  w.BeginArray();
  for (uint32_t i = kids.begin[id]; i < kids.begin[id + 1]; ++i)
    w.IntElement(kids.child[i]);
  w.EndArray();
  w.EndObject();
}

}  // namespace

void WriteCpuProfile(const ExportInput& in, ByteSink& out) {
  static const ProfilerTrace kEmpty;
  const ProfilerTrace& p = in.profile ? *in.profile : kEmpty;
  const SampleBuffer& samples = p.samples();
  const StackTable& stacks = p.stacks();

  // hitCount: samples per node (a weighted profile's counts).
  std::vector<uint64_t> hits(stacks.size() + 3, 0);
  for (size_t i = 0; i < samples.size(); ++i)
    hits[NodeIdForStack(samples[i].stack)] +=
        in.weights ? (*in.weights)[i].count : 1;
  bool has_program = hits[kProgramNodeId] > 0;
  ChildLists kids(stacks, has_program);

  JsonWriter w(&out);
  w.BeginObject();
  w.Key("nodes");
  w.BeginArray();
  CallFrameCache frames(p, ScriptIdStyle::kString);
  WriteNode(w, p, frames, kRootNodeId, FrameId::None(), "(root)", 0, kids);
  if (has_program)
    WriteNode(w, p, frames, kProgramNodeId, FrameId::None(), "(program)",
              hits[kProgramNodeId], kids);
  for (uint32_t s = 0; s < stacks.size(); ++s) {
    int64_t id = NodeIdForStack(StackId(s));
    WriteNode(w, p, frames, id, stacks.Get(StackId(s)).frame, "", hits[id],
              kids);
  }
  w.EndArray();

  int64_t start_us = samples.empty() ? 0 : MsToWholeUs(samples[0].timestamp);
  int64_t end_us = ProfileEndUs(in);
  w.Key("startTime");
  w.Int(start_us);
  w.Key("endTime");
  w.Int(end_us);
  SampleTextCaches text(p);
  WriteSampleNodeIds(w, samples, 0, samples.size(), text);
  int64_t prev_us = start_us;
  WriteTimeDeltas(w, samples, 0, samples.size(), &prev_us, text);
  w.EndObject();
}

void WriteCpuProfileFormat(const ExportInput& in, const ExportOptions& o,
                           ByteSink& out) {
  WriteCpuProfile(in, out);
}

}  // namespace webprof
