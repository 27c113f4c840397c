#include "import/v8_profile.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/json_scan.h"

namespace webprof {
namespace {

std::string NodeText(int64_t id) { return "node " + std::to_string(id); }

// A V8 0-based position (-1 = unknown) as the core's 1-based one (0).
bool Position(JsonCursor& c, uint32_t* out) {
  int64_t v;
  if (!c.Int(&v)) return false;
  if (v < -1 || v >= int64_t{0xFFFFFFFF}) return c.Fail("a position >= -1");
  *out = v < 0 ? 0 : static_cast<uint32_t>(v + 1);
  return true;
}

bool IsPseudo(std::string_view name, std::string_view url) {
  return url.empty() &&
         (name == "(root)" || name == "(program)" || name == "(idle)");
}

}  // namespace

std::string_view V8NodeTree::Keep(std::string_view s,
                                  const std::string& scratch) {
  // A view into the text unless the string had escapes (then it lives in
  // the scratch buffer, which the next string overwrites).
  if (s.data() != scratch.data()) return s;
  owned_.emplace_back(s);
  return owned_.back();
}

bool V8NodeTree::ReadCallFrame(JsonCursor& c, Node* n) {
  if (!c.BeginObject()) return false;
  std::string_view key;
  while (c.NextKey(&key, &key_scratch_)) {
    if (key == "functionName" || key == "url") {
      std::string_view v;
      if (!c.String(&v, &scratch_)) return false;
      (key == "url" ? n->url : n->name) = Keep(v, scratch_);
    } else if (key == "lineNumber") {
      if (!Position(c, &n->line)) return false;
    } else if (key == "columnNumber") {
      if (!Position(c, &n->column)) return false;
    } else if (!c.Skip()) {
      return false;
    }
  }
  return c.ok();
}

namespace {

// V8's node head, {"id":I,"callFrame":{"functionName":S,"scriptId":X,
// "url":S,"lineNumber":I,"columnNumber":I}, read straight from the text at
// `at` (json_scan.h) when every value in it is one the cursor reads inline:
// strings without escapes, integers of up to 15 digits, positions in range.
// Returns the offset past it, or 0 (nothing read: the cursor decides).
size_t CompactHead(std::string_view text, size_t at, int64_t* id,
                   std::string_view* name, std::string_view* url,
                   uint32_t* line, uint32_t* column) {
  const char* const p = text.data();
  const char* const end = p + text.size();
  const char* q = p + at;
  auto key = [&](const auto& literal) {
    const size_t n = sizeof literal - 1;
    if (static_cast<size_t>(end - q) < n ||
        !json_scan::SameBytes(q, literal, n))
      return false;
    q += n;
    return true;
  };
  auto integer = [&](int64_t* out) {
    if (static_cast<size_t>(end - q) < json_scan::kScanRoom) return false;
    const bool negative = *q == '-';
    const char* d = q + negative;
    uint64_t v;
    const unsigned n = json_scan::Digits16(d, &v);
    if (n == 0 || n > 15 || (*d == '0' && n > 1) || d[n] == '.' ||
        d[n] == 'e' || d[n] == 'E')
      return false;
    *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    q = d + n;
    return true;
  };
  auto string = [&](std::string_view* out) {
    if (q == end || *q != '"') return false;
    const char* const from = q + 1;
    const char* r = from;
    for (;;) {
      if (end - r < 8) return false;
      const unsigned run = json_scan::StringRun8(r);
      r += run;
      if (run < 8) break;
    }
    if (*r != '"') return false;  // an escape or a control character
    *out = std::string_view(from, static_cast<size_t>(r - from));
    q = r + 1;
    return true;
  };
  auto position = [&](uint32_t* out) {  // 0-based, -1 unknown -> 1-based, 0
    int64_t v;
    if (!integer(&v) || v < -1 || v >= int64_t{0xFFFFFFFF}) return false;
    *out = v < 0 ? 0 : static_cast<uint32_t>(v + 1);
    return true;
  };
  int64_t script;
  std::string_view script_id;
  if (!key("{\"id\":") || !integer(id) ||
      !key(",\"callFrame\":{\"functionName\":") || !string(name) ||
      !key(",\"scriptId\":") || !(string(&script_id) || integer(&script)) ||
      !key(",\"url\":") || !string(url) || !key(",\"lineNumber\":") ||
      !position(line) || !key(",\"columnNumber\":") || !position(column) ||
      !key("}"))
    return 0;
  return static_cast<size_t>(q - p);
}

}  // namespace

bool V8NodeTree::ReadCompactNode(JsonCursor& c, Node* n) {
  // {"id":I,"callFrame":{"functionName":S,"scriptId":X,"url":S,
  // "lineNumber":I,"columnNumber":I} then any of "hitCount", "children",
  // "parent", in any order.
  const size_t at = c.Offset();
  if (const size_t past = CompactHead(c.text(), at, &n->id, &n->name, &n->url,
                                      &n->line, &n->column)) {
    c.Seek(past);
    return ReadCompactTail(c, n);
  }
  std::string_view v;
  if (!c.Match("{\"id\":") || !c.Int(&n->id) ||
      !c.Match(",\"callFrame\":{\"functionName\":") || !c.String(&v, &scratch_))
    return false;
  n->name = Keep(v, scratch_);
  if (!c.Match(",\"scriptId\":") || !c.Skip() || !c.Match(",\"url\":") ||
      !c.String(&v, &scratch_))
    return false;
  n->url = Keep(v, scratch_);
  if (!c.Match(",\"lineNumber\":") || !Position(c, &n->line) ||
      !c.Match(",\"columnNumber\":") || !Position(c, &n->column) ||
      !c.Match("}"))
    return false;
  return ReadCompactTail(c, n);
}

bool V8NodeTree::ReadCompactTail(JsonCursor& c, Node* n) {
  for (;;) {
    if (c.Match("}")) return true;
    if (c.Match(",\"hitCount\":")) {
      if (!c.Skip()) return false;
    } else if (c.Match(",\"children\":")) {
      n->children_begin = static_cast<uint32_t>(children_.size());
      if (!ReadIntArray(c, &children_)) return false;
      n->children_end = static_cast<uint32_t>(children_.size());
    } else if (c.Match(",\"parent\":")) {
      if (!c.Int(&n->parent_id)) return false;
      if (n->parent_id == kNoParent) return c.Fail("a parent id");
    } else {
      return false;
    }
  }
}

bool V8NodeTree::ReadNode(JsonCursor& c, std::string* error) {
  const uint32_t children = static_cast<uint32_t>(children_.size());
  Node n;
  n.children_begin = n.children_end = children;
  // The shape V8 writes, read without per-member bookkeeping; any other
  // (members in another order, spaces, more members) is read member by
  // member from the same offset.
  const size_t at = c.Offset();
  if (ReadCompactNode(c, &n)) return Add(n, error);
  if (!c.ok()) return false;
  c.Seek(at);
  children_.resize(children);
  n = Node{};
  bool has_id = false, has_frame = false;
  n.children_begin = n.children_end = static_cast<uint32_t>(children_.size());
  if (!c.BeginObject()) return false;
  std::string_view key;
  while (c.NextKey(&key, &key_scratch_)) {
    if (key == "id") {
      if (!c.Int(&n.id)) return false;
      has_id = true;
    } else if (key == "callFrame") {
      if (!ReadCallFrame(c, &n)) return false;
      has_frame = true;
    } else if (key == "parent") {
      if (!c.Int(&n.parent_id)) return false;
      if (n.parent_id == kNoParent) return c.Fail("a parent id");
    } else if (key == "children") {
      n.children_begin = static_cast<uint32_t>(children_.size());
      if (!ReadIntArray(c, &children_)) return false;
      n.children_end = static_cast<uint32_t>(children_.size());
    } else if (!c.Skip()) {
      return false;
    }
  }
  if (!c.ok()) return false;
  if (!has_id || !has_frame) {
    *error = "a node (the " + std::to_string(nodes_.size() + 1) +
             "th) has no " + (has_id ? "callFrame" : "id");
    return false;
  }
  return Add(n, error);
}

bool V8NodeTree::Add(Node& n, std::string* error) {
  if (nodes_.size() >= 0xFFFFFFF0u) {
    *error = "too many nodes";
    return false;
  }
  n.pseudo = IsPseudo(n.name, n.url);
  nodes_.push_back(n);
  return true;
}

bool V8NodeTree::FindSparse(int64_t id, uint32_t* index) const {
  auto it = index_.find(id);
  if (it == index_.end()) return false;
  *index = it->second;
  return true;
}

bool V8NodeTree::FindAll(const int64_t* ids, size_t n, uint32_t* out,
                         size_t* missing) const {
  if (!dense_.empty()) {
    // The table by id, read without Find()'s per-call checks: an id past
    // it (a negative one too, as unsigned) or a hole is no node.
    const uint32_t* dense = dense_.data();
    const uint64_t size = dense_.size();
    for (size_t i = 0; i < n; ++i) {
      const uint64_t id = static_cast<uint64_t>(ids[i]);
      const uint32_t at = id < size ? dense[id] : 0;
      if (at == 0) {
        *missing = i;
        return false;
      }
      out[i] = at - 1;
    }
    return true;
  }
  for (size_t i = 0; i < n; ++i) {
    if (!FindSparse(ids[i], &out[i])) {
      *missing = i;
      return false;
    }
  }
  return true;
}

bool V8NodeTree::Validate(std::string* error) {
  const uint32_t n = static_cast<uint32_t>(nodes_.size());
  index_.clear();
  dense_.clear();
  // V8 numbers nodes 1..n: a table by id, when every id is small, instead
  // of a hash map (a node each: an allocation per node, per input) — for
  // the checks below and for every sample's lookup (Find).
  int64_t max_id = -1;
  bool small = n > 0;
  for (const Node& node : nodes_) {
    if (node.id < 0 || node.id > int64_t{4} * n + 1024) small = false;
    max_id = std::max(max_id, node.id);
  }
  if (small)
    dense_.assign(static_cast<size_t>(max_id) + 1, 0);
  else
    index_.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    const bool fresh = small ? dense_[static_cast<size_t>(nodes_[i].id)] == 0
                             : index_.emplace(nodes_[i].id, i).second;
    if (!fresh) {
      *error = NodeText(nodes_[i].id) + " appears twice";
      return false;
    }
    if (small) dense_[static_cast<size_t>(nodes_[i].id)] = i + 1;
  }
  bool any_children = false;
  for (uint32_t i = 0; i < n; ++i) {
    Node& node = nodes_[i];
    node.parent = kNone;
    if (node.parent_id == kNoParent) continue;
    uint32_t parent;
    if (!Find(node.parent_id, &parent)) {
      *error = NodeText(node.id) + "'s parent " +
               std::to_string(node.parent_id) + " is not a node";
      return false;
    }
    if (parent >= i) {
      *error = NodeText(node.id) + "'s parent " +
               std::to_string(node.parent_id) +
               " is not an earlier node (a cycle or a forward reference)";
      return false;
    }
    node.parent = parent;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const Node& node = nodes_[i];
    for (uint32_t k = node.children_begin; k < node.children_end; ++k) {
      any_children = true;
      uint32_t at;
      if (!Find(children_[k], &at)) {
        *error = NodeText(node.id) + " lists child " +
                 std::to_string(children_[k]) + ", which is not a node";
        return false;
      }
      Node& child = nodes_[at];
      if (child.parent != kNone && child.parent != i) {
        *error = NodeText(child.id) + " has two parents (" +
                 std::to_string(nodes_[child.parent].id) + " and " +
                 std::to_string(node.id) + ")";
        return false;
      }
      child.parent = i;
    }
  }
  order_.clear();
  order_.reserve(n);
  if (!any_children) {
    // Parents are earlier nodes (checked above): the text's order is one.
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), 0u);
  } else {
    // Breadth first from the roots; a node on a cycle is never reached.
    std::vector<uint32_t> first(n + 1, 0), kids(n);
    for (uint32_t i = 0; i < n; ++i)
      if (nodes_[i].parent != kNone) ++first[nodes_[i].parent + 1];
    for (uint32_t i = 0; i < n; ++i) first[i + 1] += first[i];
    std::vector<uint32_t> fill(first.begin(), first.end() - 1);
    for (uint32_t i = 0; i < n; ++i)
      if (nodes_[i].parent != kNone) kids[fill[nodes_[i].parent]++] = i;
    for (uint32_t i = 0; i < n; ++i)
      if (nodes_[i].parent == kNone) order_.push_back(i);
    for (size_t at = 0; at < order_.size(); ++at)
      for (uint32_t k = first[order_[at]]; k < first[order_[at] + 1]; ++k)
        order_.push_back(kids[k]);
    if (order_.size() != n) {
      std::vector<bool> seen(n, false);
      for (uint32_t i : order_) seen[i] = true;
      uint32_t lost = 0;
      while (seen[lost]) ++lost;
      *error = NodeText(nodes_[lost].id) +
               " is on a cycle of parents (no root reaches it)";
      return false;
    }
  }
  return true;
}

void V8NodeTree::Intern(ProfilerTrace* trace) {
  for (uint32_t i : order_) {
    Node& node = nodes_[i];
    StackId parent =
        node.parent == kNone ? StackId::None() : nodes_[node.parent].stack;
    node.stack = parent;
    if (node.pseudo) continue;
    FrameId f = trace->InternFrame(
        RawFrame{node.name, node.url, node.line, node.column});
    if (f.is_none()) continue;  // a table's cap: time goes to the caller
    StackId s;
    if (trace->InternStack(f, parent, &s) == Status::kOk) node.stack = s;
  }
}

bool ReadIntArray(JsonCursor& c, std::vector<int64_t>* out) {
  return c.IntArray(out);
}

void AddDeltas(double start_us, const std::vector<int64_t>& deltas,
               std::vector<double>* times_us) {
  // Exact while the sum stays below 2^53 µs (285 years).
  // Written through a pointer: push_back's bookkeeping per sample was most
  // of this loop's time in Wasm.
  double t = start_us;
  const size_t base = times_us->size(), n = deltas.size();
  times_us->resize(base + n);
  double* out = times_us->data() + base;
  const int64_t* d = deltas.data();
  for (size_t i = 0; i < n; ++i) out[i] = t += static_cast<double>(d[i]);
}

bool CheckSamples(const V8NodeTree& tree, V8Samples* samples,
                  std::string* error) {
  const std::vector<int64_t>& nodes = samples->nodes;
  samples->index.resize(nodes.size());
  size_t i;
  if (tree.FindAll(nodes.data(), nodes.size(), samples->index.data(), &i))
    return true;
  *error = "sample " + std::to_string(i) + " names node " +
           std::to_string(nodes[i]) + ", which is not a node";
  return false;
}

uint32_t AppendSamples(const V8NodeTree& tree, const V8Samples& s,
                       double origin_us, double window_start_us,
                       double window_end_us, Session* out, bool* truncated) {
  uint32_t kept = 0;
  std::vector<uint32_t> order;
  ForEachSample(
      tree, s, origin_us, window_start_us, window_end_us, &order,
      [&](double us, uint32_t index) {
        Status st = out->TakeSample(us / 1000.0, tree.stack(index));
        if (st == Status::kOk) {
          ++kept;
        } else if (st == Status::kBufferFull || st == Status::kStopped) {
          *truncated = true;
          return false;
        }
        return true;
      });
  return kept;
}

}  // namespace webprof
