// The call tree returned by results() in the Mozilla JS Profiling proposal
// (seed 002): a root {samples, selfCount, children} and nodes {function
// {file, line, name}, site {file, line}, samples, selfCount, children}.
//
// The tree is derived from a ProfilerTrace, whose frames carry one position:
// the line/column where that frame is executing (what Error.stack shows). A
// node is one function reached from one call site, so its key is
//   (parent node, function = (name, resource), site = the parent frame's
//    executing (resource, line)).
// The call site of a frame is therefore read from the frame one row below it
// in the stack prefix tree; an outermost frame has no site. The frame's own
// executing line is not part of its key: samples taken on different lines of
// one function land on one node. The function's definition line is not in
// Error.stack text (nor in a frame row), so `function.line` is not written;
// `function` is {file, name} (see docs/ARCHITECTURE.md).
//
// Build() maps every stack row to its node once (rows are ordered parent
// before child, so one forward pass suffices), adds each sample to its node's
// selfCount, then sums samples bottom-up in one backward pass: nodes are
// created parent-first too. Hence samples = selfCount + sum(children.samples)
// holds at every node by construction. Annotation slots (frame()) attach to
// the node of their stack.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "frame_annotations.h"
#include "profiler_trace.h"

namespace webprof {

struct CallTreeNode {
  static constexpr uint32_t kNoNode = 0xFFFFFFFFu;
  uint32_t parent = kNoNode;  // kNoNode only for the root (index 0)
  StringId name;              // None only for the root
  ResourceId resource;        // None: builtin (no script)
  ResourceId site_resource;   // the caller's script; None = no site
  uint32_t site_line = 0;     // 1-based; 0 = no site / unknown line
  uint64_t samples = 0;       // samples with this node on the stack
  uint64_t self_count = 0;    // samples with this node innermost
  uint32_t first_child = kNoNode;
  uint32_t last_child = kNoNode;
  uint32_t next_sibling = kNoNode;  // children in order of first appearance
};

class CallTree {
 public:
  // Rebuilds the tree from every sample of `trace`; `annotations` may be null.
  void Build(const ProfilerTrace& trace, const FrameAnnotations* annotations);

  const std::vector<CallTreeNode>& nodes() const { return nodes_; }
  const CallTreeNode& root() const { return nodes_[0]; }
  // The node a stack row maps to (valid after Build()).
  uint32_t NodeOfStack(StackId stack) const {
    return stack.is_none() ? 0 : node_of_stack_[stack.value];
  }
  // Annotation slots attached to `node`, in slot order.
  std::vector<uint32_t> SlotsOf(uint32_t node) const;

  // Appends the tree as UTF-8 JSON to `out` (iterative: no recursion, so a
  // deep tree cannot overflow Wasm's small stack). Node fields: "function"
  // {"file"? (absent for builtins), "name"}, "site" {"file"?, "line"?} (absent
  // for outermost frames), "samples", "selfCount", "frames" (slot ids, only
  // when annotated), "children" (always present).
  void WriteJson(const ProfilerTrace& trace, std::string* out) const;

 private:
  uint32_t Child(uint32_t parent, const CallTreeNode& key);

  struct Key {
    uint32_t parent, name, resource, site_resource, site_line;
    bool operator==(const Key& o) const {
      return parent == o.parent && name == o.name && resource == o.resource &&
             site_resource == o.site_resource && site_line == o.site_line;
    }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };

  std::vector<CallTreeNode> nodes_;
  std::vector<uint32_t> node_of_stack_;
  std::unordered_map<Key, uint32_t, KeyHash> index_;
  std::vector<std::pair<uint32_t, uint32_t>> slots_;  // (node, slot), by node
};

}  // namespace webprof
