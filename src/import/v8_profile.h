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

#include <algorithm>
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
  // Nodes hold views into owned_: a copy would point into the original's
  // strings. Moving keeps them (a deque's elements stay where they are), and
  // a vector of trees then moves instead of copying when it grows.
  V8NodeTree() = default;
  V8NodeTree(const V8NodeTree&) = delete;
  V8NodeTree& operator=(const V8NodeTree&) = delete;
  V8NodeTree(V8NodeTree&&) = default;
  V8NodeTree& operator=(V8NodeTree&&) = default;

  // Reads one node object at the cursor. False: the cursor's error, or
  // `error` when the node is incomplete.
  bool ReadNode(JsonCursor& c, std::string* error);
  // Validates every node read so far (see above); nothing is interned.
  bool Validate(std::string* error);
  // Before Validate(): forgets the nodes read after mark() (a reader that
  // read ahead into this tree and found the nodes were not its own).
  struct Mark {
    size_t nodes, children;
  };
  Mark mark() const { return Mark{nodes_.size(), children_.size()}; }
  void Rewind(Mark m) {
    nodes_.resize(m.nodes);
    children_.resize(m.children);
  }
  // Empty as constructed, the storage kept: a reader of one input after
  // another (the merger) grows it once, not per input.
  void Clear() {
    nodes_.clear();
    children_.clear();
    index_.clear();
    dense_.clear();
    order_.clear();
    owned_.clear();
  }
  size_t memory_bytes() const {
    return nodes_.capacity() * sizeof(Node) +
           children_.capacity() * sizeof(int64_t) +
           (dense_.capacity() + order_.capacity()) * sizeof(uint32_t);
  }
  // After Validate(): interns each node's stack into `trace`, parents first.
  void Intern(ProfilerTrace* trace);

  // After Validate(), for a reader that interns elsewhere (the merger):
  // node `index`'s parent's index (kNone: a root) and its frame (false: a
  // pseudo-frame, no function: the node has its parent's stack).
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  uint32_t parent(uint32_t index) const { return nodes_[index].parent; }
  bool frame(uint32_t index, RawFrame* out) const {
    const Node& n = nodes_[index];
    *out = RawFrame{n.name, n.url, n.line, n.column};
    return !n.pseudo;
  }

  // The node with this id; false when there is none.
  bool Find(int64_t id, uint32_t* index) const {
    if (dense_.empty()) return FindSparse(id, index);
    if (id < 0 || static_cast<uint64_t>(id) >= dense_.size() ||
        dense_[static_cast<size_t>(id)] == 0)
      return false;
    *index = dense_[static_cast<size_t>(id)] - 1;
    return true;
  }
  // Find() for ids[0..n): out[i] = the node index of ids[i]; false with
  // *missing = the first i with no node.
  bool FindAll(const int64_t* ids, size_t n, uint32_t* out,
               size_t* missing) const;
  StackId stack(uint32_t index) const { return nodes_[index].stack; }
  size_t size() const { return nodes_.size(); }

 private:
  static constexpr int64_t kNoParent = std::numeric_limits<int64_t>::min();
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
  // V8's own compact node shape; false (the cursor's error, or none: not
  // that shape) otherwise.
  bool ReadCompactNode(JsonCursor& c, Node* n);
  // After its callFrame: "hitCount", "children", "parent", then '}'.
  bool ReadCompactTail(JsonCursor& c, Node* n);
  bool Add(Node& n, std::string* error);
  bool FindSparse(int64_t id, uint32_t* index) const;
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
  std::vector<uint32_t> index;  // each sample's node index, by CheckSamples
  void Clear() {
    nodes.clear();
    times_us.clear();
    index.clear();
  }
  size_t memory_bytes() const {
    return nodes.capacity() * sizeof(int64_t) +
           times_us.capacity() * sizeof(double) +
           index.capacity() * sizeof(uint32_t);
  }
};

// Reads an integer array member (samples, timeDeltas) onto `out`.
bool ReadIntArray(JsonCursor& c, std::vector<int64_t>* out);

// Turns V8's deltas into absolute times from `start_us` (appended).
void AddDeltas(double start_us, const std::vector<int64_t>& deltas,
               std::vector<double>* times_us);

// Checks that every sample names a node of `tree` (error names the first
// that does not) and finds each one's node (samples->index).
bool CheckSamples(const V8NodeTree& tree, V8Samples* samples,
                  std::string* error);

// The samples (after CheckSamples) are in time order, none before
// `origin_us` nor outside [window_start_us, window_end_us]: ForEachSample
// then takes them as they are.
inline bool SamplesInOrder(const V8Samples& s, double origin_us,
                           double window_start_us, double window_end_us);

// Calls take(us, node index) for the samples in [window_start_us,
// window_end_us] not before `origin_us`, in time order (stable), with µs
// since `origin_us` (ms: us / 1000); stops early when take() returns false.
// After CheckSamples() (its node indices). The one rule for which samples a
// profile has and when.
template <typename Take>
void ForEachSample(const V8NodeTree& tree, const V8Samples& s, double origin_us,
                   double window_start_us, double window_end_us,
                   std::vector<uint32_t>* scratch, Take take);

// Appends the samples (ForEachSample) to `out`, each node's stack as
// interned in `tree` (after Intern). Returns how many were kept;
// *truncated when the session's buffer filled.
uint32_t AppendSamples(const V8NodeTree& tree, const V8Samples& s,
                       double origin_us, double window_start_us,
                       double window_end_us, Session* out, bool* truncated);

inline bool SamplesInOrder(const V8Samples& s, double origin_us,
                           double window_start_us, double window_end_us) {
  const size_t n = std::min(s.index.size(), s.times_us.size());
  const double* t = s.times_us.data();
  // In order (no NaN: it compares false), the first and last samples
  // bound the rest, so one compare per sample decides.
  bool plain = n == 0 || (t[0] >= window_start_us && t[0] >= origin_us &&
                          t[n - 1] <= window_end_us);
  for (size_t i = 1; i < n && plain; ++i) plain = t[i] >= t[i - 1];
  return plain;
}

template <typename Take>
void ForEachSample(const V8NodeTree& tree, const V8Samples& s, double origin_us,
                   double window_start_us, double window_end_us,
                   std::vector<uint32_t>* scratch, Take take) {
  const size_t n = std::min(s.index.size(), s.times_us.size());
  const double* t = s.times_us.data();
  const uint32_t* index = s.index.data();
  // Most profiles are in order and inside the window: no index list then.
  if (SamplesInOrder(s, origin_us, window_start_us, window_end_us)) {
    for (size_t i = 0; i < n; ++i)
      if (!take(t[i] - origin_us, index[i])) return;
    return;
  }
  std::vector<uint32_t>& order = *scratch;
  order.clear();
  for (size_t i = 0; i < n; ++i)
    if (t[i] >= window_start_us && t[i] <= window_end_us && t[i] >= origin_us)
      order.push_back(static_cast<uint32_t>(i));
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return t[a] < t[b]; });
  for (uint32_t i : order)
    if (!take(t[i] - origin_us, index[i])) return;
}

}  // namespace webprof
