#include "runtime/call_tree.h"

#include <algorithm>

#include "base/decimal.h"
#include "base/hash.h"
#include "base/stable_sort.h"

namespace webprof {

uint64_t CallTree::HashOf(const Key& k) {
  return HashCombine((uint64_t{k.a} << 32) | k.b, (uint64_t{k.c} << 32) | k.d);
}

namespace {
constexpr uint32_t kUnscanned = 0xFFFFFFFFu;
// The proposal's name for a script's top-level code.
constexpr std::string_view kTopLevel = "<top level>";
}  // namespace

void CallTree::MapFunctions(const ProfilerTrace& trace,
                            const FrameDefinitions* definitions) {
  functions_.clear();
  function_keys_.clear();
  function_index_.Clear();
  const auto& frames = trace.frames().rows();
  function_of_frame_.resize(frames.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    CallTreeFunction fn{trace.names().Get(f.name), f.resource, 0};
    Key k{f.resource.value, kUnscanned, f.name.value, 0};
    Definition d;
    if (definitions && definitions->Of(static_cast<uint32_t>(i), &d)) {
      fn.name = d.top_level ? kTopLevel : d.name;
      fn.line = d.line;
      k = Key{f.resource.value, d.line, d.column, 0};
    }
    const uint64_t hash = HashOf(k);
    uint32_t id = function_index_.Find(
        hash, [&](uint32_t row) { return function_keys_[row] == k; });
    if (id == InternIndex::kMissing) {
      id = static_cast<uint32_t>(functions_.size());
      function_index_.Insert(hash, id);
      functions_.push_back(fn);
      function_keys_.push_back(k);
    }
    function_of_frame_[i] = id;
  }
}

uint32_t CallTree::Child(uint32_t parent, const CallTreeNode& key) {
  Key k{parent, key.function, key.site_resource.value, key.site_line};
  const uint64_t hash = HashOf(k);
  uint32_t id =
      index_.Find(hash, [&](uint32_t row) { return node_keys_[row] == k; });
  if (id != InternIndex::kMissing) return id;
  id = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(key);
  node_keys_.push_back(k);
  nodes_.back().parent = parent;
  CallTreeNode& p = nodes_[parent];
  if (p.last_child == CallTreeNode::kNoNode)
    p.first_child = id;
  else
    nodes_[p.last_child].next_sibling = id;
  p.last_child = id;
  index_.Insert(hash, id);
  return id;
}

void CallTree::Build(const ProfilerTrace& trace,
                     const FrameAnnotations* annotations,
                     const FrameDefinitions* definitions) {
  MapFunctions(trace, definitions);
  nodes_.assign(1, CallTreeNode{});
  node_keys_.assign(1, Key{});
  index_.Clear();
  slots_.clear();
  const auto& stacks = trace.stacks().rows();
  const auto& frames = trace.frames().rows();
  node_of_stack_.resize(stacks.size());
  for (size_t s = 0; s < stacks.size(); ++s) {
    const Stack& row = stacks[s];
    CallTreeNode key;
    key.function = function_of_frame_[row.frame.value];
    uint32_t parent = 0;
    if (!row.parent.is_none()) {
      parent = node_of_stack_[row.parent.value];  // parent row < s
      // The call site is where the caller is executing.
      const Frame& caller = frames[stacks[row.parent.value].frame.value];
      key.site_resource = caller.resource;
      key.site_line = caller.line;
    }
    node_of_stack_[s] = Child(parent, key);
  }
  trace.samples().ForEach([this](const Sample& smp) {
    nodes_[NodeOfStack(smp.stack)].self_count++;
  });
  for (CallTreeNode& n : nodes_) n.samples = n.self_count;
  // Children have larger indexes than their parents: one backward pass.
  for (size_t i = nodes_.size(); i-- > 1;)
    nodes_[nodes_[i].parent].samples += nodes_[i].samples;
  if (annotations) {
    for (uint32_t slot = 0; slot < annotations->size(); ++slot)
      slots_.emplace_back(NodeOfStack(annotations->stack_of(slot)), slot);
    StableSort(&slots_,
               [](const std::pair<uint32_t, uint32_t>& a,
                  const std::pair<uint32_t, uint32_t>& b) { return a < b; });
  }
}

std::vector<uint32_t> CallTree::SlotsOf(uint32_t node) const {
  std::vector<uint32_t> out;
  auto it = std::lower_bound(slots_.begin(), slots_.end(),
                             std::make_pair(node, uint32_t{0}));
  for (; it != slots_.end() && it->first == node; ++it)
    out.push_back(it->second);
  return out;
}

namespace {

void AppendJsonString(std::string_view s, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (u < 0x20) {
      out->append("\\u00");
      out->push_back(kHex[u >> 4]);
      out->push_back(kHex[u & 15]);
    } else {
      out->push_back(c);  // UTF-8 is valid: the string table normalises it
    }
  }
  out->push_back('"');
}

}  // namespace

void CallTree::WriteJson(const ProfilerTrace& trace, std::string* out) const {
  // `"file":…,"line":…` of a function or a call site, each part only when
  // known; true if anything was written.
  auto position = [&](ResourceId file, uint32_t line) {
    if (!file.is_none()) {
      out->append("\"file\":");
      AppendJsonString(trace.resource_url(file), out);
    }
    if (line != 0) {
      if (!file.is_none()) out->push_back(',');
      out->append("\"line\":");
      AppendUnsigned(line, out);
    }
    return !file.is_none() || line != 0;
  };
  auto open_node = [&](uint32_t id) {
    const CallTreeNode& n = nodes_[id];
    out->push_back('{');
    if (id != 0) {
      const CallTreeFunction& fn = functions_[n.function];
      out->append("\"function\":{");
      if (position(fn.resource, fn.line)) out->push_back(',');
      out->append("\"name\":");
      AppendJsonString(fn.name, out);
      out->append("},");
      if (n.parent != 0) {
        out->append("\"site\":{");
        position(n.site_resource, n.site_line);
        out->append("},");
      }
    }
    out->append("\"samples\":");
    AppendUnsigned(n.samples, out);
    out->append(",\"selfCount\":");
    AppendUnsigned(n.self_count, out);
    std::vector<uint32_t> slots = SlotsOf(id);
    if (!slots.empty()) {
      out->append(",\"frames\":[");
      for (size_t i = 0; i < slots.size(); ++i) {
        if (i) out->push_back(',');
        AppendUnsigned(slots[i], out);
      }
      out->push_back(']');
    }
    out->append(",\"children\":[");
  };
  // Depth-first with an explicit stack of "next node to open" per level.
  std::vector<uint32_t> pending;
  open_node(0);
  pending.push_back(nodes_[0].first_child);
  while (!pending.empty()) {
    uint32_t next = pending.back();
    if (next == CallTreeNode::kNoNode) {
      pending.pop_back();
      out->append("]}");
      continue;
    }
    const CallTreeNode& n = nodes_[next];
    if (nodes_[n.parent].first_child != next) out->push_back(',');
    pending.back() = n.next_sibling;
    open_node(next);
    pending.push_back(n.first_child);
  }
}

}  // namespace webprof
