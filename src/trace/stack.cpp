#include "trace/stack.h"

#include "base/hash.h"

namespace webprof {

StackId StackTable::Intern(FrameId frame, StackId parent) {
  uint64_t h = HashCombine(frame.value, parent.value);
  uint32_t row = index_.Find(h, [&](uint32_t r) {
    return rows_[r].frame == frame && rows_[r].parent == parent;
  });
  if (row != InternIndex::kMissing) return StackId(row);
  if (rows_.size() >= max_stacks_) {
    ++dropped_;
    return parent;
  }
  uint32_t id = static_cast<uint32_t>(rows_.size());
  rows_.push_back(Stack{frame, parent});
  index_.Insert(h, id);
  return StackId(id);
}

}  // namespace webprof
