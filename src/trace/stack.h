// ProfilerStack rows: a prefix tree of (frame, parent) ("get a stack ID").
//
// A stack is identified by its innermost frame and the id of the stack below
// it, so common prefixes are stored once. Invariant: a row's parent is either
// None or a smaller id — parents are always appended before their children,
// which lets consumers (exporters, call trees) walk rows in order.
//
// Cap: `max_stacks` rows; past it Intern() returns the parent (the stack is
// truncated at its deepest stored prefix) and counts a drop.
#pragma once

#include <vector>

#include "base/ids.h"
#include "base/intern_index.h"

namespace webprof {

struct Stack {
  FrameId frame;   // never None
  StackId parent;  // None for an outermost frame; else < this row's id
};
static_assert(sizeof(Stack) == 8, "Stack rows stay 8 bytes");

class StackTable {
 public:
  static constexpr uint32_t kDefaultMaxStacks = 1u << 22;
  explicit StackTable(uint32_t max_stacks = kDefaultMaxStacks)
      : max_stacks_(max_stacks) {}

  // Caller guarantees `frame` is a valid FrameId and `parent` is None or <
  // size().
  StackId Intern(FrameId frame, StackId parent);
  const Stack& Get(StackId id) const { return rows_[id.value]; }
  bool Contains(StackId id) const { return id.value < rows_.size(); }
  uint32_t size() const { return static_cast<uint32_t>(rows_.size()); }
  const std::vector<Stack>& rows() const { return rows_; }
  uint64_t dropped() const { return dropped_; }
  size_t memory_bytes() const {
    return rows_.capacity() * sizeof(Stack) + index_.memory_bytes();
  }
  void Clear() {
    rows_.clear();
    index_.Clear();
    dropped_ = 0;
  }

 private:
  std::vector<Stack> rows_;
  InternIndex index_;
  uint32_t max_stacks_;
  uint64_t dropped_ = 0;
};

}  // namespace webprof
