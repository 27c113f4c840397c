// What V8's CPU profiles look like in both files that carry them — a
// `.cpuprofile` and the Profile/ProfileChunk events of a Chrome trace — read
// once for both importers (cpuprofile.h, chrome_trace.h).
//
// A V8 profile is a tree of nodes (id, callFrame, and either `parent` or a
// `children` list) plus samples (a node id each) with times given as
// deltas. The node tree is untrusted text, so it is validated before
// anything is interned: ids are unique, every reference names a node, a
// `parent` comes before its child (a node given by `parent` may not point
// at itself or a later node: no cycle, no forward reference), a node has
// one parent, and `children` lists reach every node from a root (a node on
// a cycle is reachable from none). Only then are the nodes' stacks interned
// into a trace, parents first, and the samples appended in time order
// (stable: V8's samples are sometimes out of order by a few µs).
//
// Frames (numbering converted here, once): lineNumber/columnNumber are
// 0-based with -1 for "unknown"; the core's are 1-based with 0. V8's
// pseudo-frames "(root)", "(program)" and "(idle)" (no URL) are no
// function: such a node has its parent's stack, so their samples have no
// stack — the W3C trace's "no JS". "(garbage collector)" and builtins stay
// frames: they are time the page's code caused.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/json_cursor.h"
#include "trace/session.h"

namespace webprof {

class V8NodeTree {
 public:
  // Reads one node object at the cursor. False: the cursor's error, or
  // `error` when the node is incomplete.
  bool ReadNode(JsonCursor& c, std::string* error);
  // Validates every node read so far (see above); nothing is interned.
  bool Validate(std::string* error);
  // After Validate(): interns each node's stack into `trace`, parents first.
  void Intern(ProfilerTrace* trace);

  // The node with this id; false when there is none.
  bool Find(int64_t id, uint32_t* index) const;
  StackId stack(uint32_t index) const { return nodes_[index].stack; }
  size_t size() const { return nodes_.size(); }

 private:
  static constexpr int64_t kNoParent = std::numeric_limits<int64_t>::min();
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  struct Node {
    int64_t id = 0;
    std::string_view name, url;
    uint32_t line = 0, column = 0;  // 1-based, 0 = absent
    int64_t parent_id = kNoParent;  // its `parent` member, if any
    uint32_t children_begin = 0, children_end = 0;  // into children_
    uint32_t parent = kNone;                        // index, after Validate
    bool pseudo = false;
    StackId stack;
  };
  bool ReadCallFrame(JsonCursor& c, Node* n);
  std::string_view Keep(std::string_view s, const std::string& scratch);

  std::vector<Node> nodes_;
  std::vector<int64_t> children_;
  std::unordered_map<int64_t, uint32_t> index_;
  std::vector<uint32_t> dense_;    // id -> index + 1 when ids are small
  std::vector<uint32_t> order_;    // parents first, after Validate
  std::deque<std::string> owned_;  // strings that had escapes
  std::string scratch_, key_scratch_;
};

// A profile's samples: node ids with absolute times in µs (V8's clock).
struct V8Samples {
  std::vector<int64_t> nodes;
  std::vector<double> times_us;
};

// Reads an integer array member (samples, timeDeltas) onto `out`.
bool ReadIntArray(JsonCursor& c, std::vector<int64_t>* out);

// Turns V8's deltas into absolute times from `start_us` (appended).
void AddDeltas(double start_us, const std::vector<int64_t>& deltas,
               std::vector<double>* times_us);

// Checks that every sample names a node of `tree` (error names the first
// that does not).
bool CheckSamples(const V8NodeTree& tree, const std::vector<int64_t>& nodes,
                  std::string* error);

// Appends the samples in [window_start_us, window_end_us] to `out` in time
// order (stable) as ms since `origin_us`; each node resolved in `tree`
// (after Intern). Returns how many were kept; *truncated when the session's
// buffer filled.
uint32_t AppendSamples(const V8NodeTree& tree, const V8Samples& s,
                       double origin_us, double window_start_us,
                       double window_end_us, Session* out, bool* truncated);

}  // namespace webprof
