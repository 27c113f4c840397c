// Strong 32-bit ids for the interned tables of a ProfilerTrace.
//
// Every table (strings, resources, frames, stacks) hands out dense indexes
// starting at 0, which are exactly the spec's "element IDs". A distinct type
// per table makes it a compile error to pass a FrameId where a StackId is
// meant. kNone (all bits set) stands for the spec's `undefined`.
#pragma once

#include <cstdint>
#include <functional>

namespace webprof {

template <typename Tag>
struct Id {
  static constexpr uint32_t kNoneValue = 0xFFFFFFFFu;
  uint32_t value = kNoneValue;

  constexpr Id() = default;
  constexpr explicit Id(uint32_t v) : value(v) {}
  constexpr bool is_none() const { return value == kNoneValue; }
  constexpr explicit operator bool() const { return !is_none(); }
  static constexpr Id None() { return Id(); }
  friend constexpr bool operator==(Id a, Id b) { return a.value == b.value; }
  friend constexpr bool operator!=(Id a, Id b) { return a.value != b.value; }
};

using StringId = Id<struct StringTag>;
using ResourceId = Id<struct ResourceTag>;
using FrameId = Id<struct FrameTag>;
using StackId = Id<struct StackTag>;

static_assert(sizeof(StackId) == 4, "ids are 32-bit");

}  // namespace webprof
