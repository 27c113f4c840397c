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
#include <unordered_map>
#include <vector>

#include "base/ids.h"

namespace webprof {

class FrameAnnotations {
 public:
  // The slot of `stack`, created on first use.
  uint32_t SlotOf(StackId stack) {
    auto it = slot_of_stack_.find(stack.value);
    if (it != slot_of_stack_.end()) return it->second;
    uint32_t slot = static_cast<uint32_t>(stack_of_slot_.size());
    slot_of_stack_.emplace(stack.value, slot);
    stack_of_slot_.push_back(stack);
    return slot;
  }
  uint32_t size() const { return static_cast<uint32_t>(stack_of_slot_.size()); }
  StackId stack_of(uint32_t slot) const { return stack_of_slot_[slot]; }
  void Clear() {
    slot_of_stack_.clear();
    stack_of_slot_.clear();
  }

 private:
  std::unordered_map<uint32_t, uint32_t> slot_of_stack_;  // StackId -> slot
  std::vector<StackId> stack_of_slot_;                    // slot -> StackId
};

}  // namespace webprof
