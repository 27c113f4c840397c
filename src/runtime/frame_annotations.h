// frame() annotation slots (Mozilla JS Profiling proposal, seed 002).
//
// frame() must return the same object for the same backtrace every time. JS
// cannot key a Map by a backtrace cheaply, but the core already interns every
// backtrace into one StackId, so the registry maps StackId -> a dense slot id
// and JS keeps slot -> object in an array. A backtrace with no visible frame
// (StackId None) has a slot too: it annotates the root. Clear() (reset())
// forgets every slot; ids restart at 0.
#pragma once

#include <cstdint>
#include <vector>

#include "base/hash.h"
#include "base/ids.h"
#include "base/intern_index.h"

namespace webprof {

class FrameAnnotations {
 public:
  // The slot of `stack`, created on first use.
  uint32_t SlotOf(StackId stack) {
    const uint64_t hash = HashMix(stack.value);
    uint32_t slot = slot_of_stack_.Find(
        hash, [&](uint32_t s) { return stack_of_slot_[s] == stack; });
    if (slot != InternIndex::kMissing) return slot;
    slot = static_cast<uint32_t>(stack_of_slot_.size());
    slot_of_stack_.Insert(hash, slot);
    stack_of_slot_.push_back(stack);
    return slot;
  }
  uint32_t size() const { return static_cast<uint32_t>(stack_of_slot_.size()); }
  StackId stack_of(uint32_t slot) const { return stack_of_slot_[slot]; }
  void Clear() {
    slot_of_stack_.Clear();
    stack_of_slot_.clear();
  }

 private:
  // StackId -> slot (an index over stack_of_slot_: no std::unordered_map,
  // whose hash table code the page's core then does not link).
  InternIndex slot_of_stack_;
  std::vector<StackId> stack_of_slot_;  // slot -> StackId
};

}  // namespace webprof
