// The call tree returned by results() in the Mozilla JS Profiling proposal
// (seed 002): a root {samples, selfCount, children} and nodes {function
// {file, line, name}, site {file, line}, samples, selfCount, children}.
//
// The tree is derived from a ProfilerTrace, whose frames carry one position:
// the line/column where that frame is executing (what Error.stack shows). A
// node is one function reached from one call site, so its key is
//   (parent node, function, site = the parent frame's executing (resource,
//    line)).
// The call site of a frame is therefore read from the frame one row below it
// in the stack prefix tree; an outermost frame has no site. A function is
// where it is defined: with the scan of its script (looked up by the tools
// module, which holds the scans, and taken in as FrameDefinitions:
// source/frame_definitions.h), every executing position maps to its
// innermost enclosing function's definition, so frames on any line of one
// function meet in one function with its definition line, top-level code is
// "<top level>" at the script's start, and two functions of one name stay
// apart. Without a scan the definition line is unknown (0, not written) and a
// function is (name, resource) as Error.stack names it.
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
#include <string_view>
#include <vector>

#include "base/intern_index.h"
#include "runtime/frame_annotations.h"
#include "source/frame_definitions.h"
#include "trace/profiler_trace.h"

namespace webprof {

// Views into the trace's string table or the definitions: valid while both
// are.
struct CallTreeFunction {
  std::string_view name;
  ResourceId resource;  // None: builtin (no script)
  uint32_t line = 0;    // definition line, 1-based; 0 = unknown
};

struct CallTreeNode {
  static constexpr uint32_t kNoNode = 0xFFFFFFFFu;
  uint32_t parent = kNoNode;    // kNoNode only for the root (index 0)
  uint32_t function = kNoNode;  // index into functions(); kNoNode for the root
  ResourceId site_resource;     // the caller's script; None = no site
  uint32_t site_line = 0;       // 1-based; 0 = no site / unknown line
  uint64_t samples = 0;         // samples with this node on the stack
  uint64_t self_count = 0;      // samples with this node innermost
  uint32_t first_child = kNoNode;
  uint32_t last_child = kNoNode;
  uint32_t next_sibling = kNoNode;  // children in order of first appearance
};

class CallTree {
 public:
  // Rebuilds the tree from every sample of `trace`; `annotations` may be
  // null; `definitions` (of `trace`'s frames, by frame id) may be null or
  // lack some frames' (scripts without a scan).
  void Build(const ProfilerTrace& trace, const FrameAnnotations* annotations,
             const FrameDefinitions* definitions = nullptr);

  const std::vector<CallTreeNode>& nodes() const { return nodes_; }
  const CallTreeNode& root() const { return nodes_[0]; }
  const CallTreeFunction& function(uint32_t id) const { return functions_[id]; }
  // The node a stack row maps to (valid after Build()).
  uint32_t NodeOfStack(StackId stack) const {
    return stack.is_none() ? 0 : node_of_stack_[stack.value];
  }
  // Annotation slots attached to `node`, in slot order.
  std::vector<uint32_t> SlotsOf(uint32_t node) const;

  // Appends the tree as UTF-8 JSON to `out` (iterative: no recursion, so a
  // deep tree cannot overflow Wasm's small stack). Node fields: "function"
  // {"file"? (absent for builtins), "line"? (when known), "name"}, "site"
  // {"file"?, "line"?} (absent
  // for outermost frames), "samples", "selfCount", "frames" (slot ids, only
  // when annotated), "children" (always present).
  void WriteJson(const ProfilerTrace& trace, std::string* out) const;

 private:
  uint32_t Child(uint32_t parent, const CallTreeNode& key);
  void MapFunctions(const ProfilerTrace& trace,
                    const FrameDefinitions* definitions);

  // Node key: (parent, function, site resource, site line); function key:
  // (resource, definition line, column) or, unscanned, (resource, ~0, name).
  struct Key {
    uint32_t a, b, c, d;
    bool operator==(const Key& o) const {
      return a == o.a && b == o.b && c == o.c && d == o.d;
    }
  };
  static uint64_t HashOf(const Key& k);

  // The indexes are over the key of each row (function, node): an
  // InternIndex, not std::unordered_map, whose hash table code the page's
  // core then does not link.
  std::vector<CallTreeFunction> functions_;
  std::vector<Key> function_keys_;
  std::vector<uint32_t> function_of_frame_;
  InternIndex function_index_;
  std::vector<CallTreeNode> nodes_;
  std::vector<Key> node_keys_;  // the root's is unused
  std::vector<uint32_t> node_of_stack_;
  InternIndex index_;
  std::vector<std::pair<uint32_t, uint32_t>> slots_;  // (node, slot), by node
};

}  // namespace webprof
