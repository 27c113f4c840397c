// ProfilerFrame rows and their interning ("get a frame ID" step 11).
//
// A frame is (name, optional resource, optional 1-based line and column),
// compared component-wise. Line and column use 0 for "absent": the spec's
// positions are 1-based, so 0 is never a real position. Conversion to other
// numbering (e.g. .cpuprofile's 0-based lines) happens only in exporters.
#pragma once

#include <string_view>
#include <vector>

#include "base/ids.h"
#include "base/intern_index.h"

namespace webprof {

struct Frame {
  StringId name;        // into ProfilerTrace::names; never None
  ResourceId resource;  // None when the frame has no script
  uint32_t line = 0;    // 1-based; 0 = absent
  uint32_t column = 0;  // 1-based; 0 = absent
};
static_assert(sizeof(Frame) == 16, "Frame rows stay 16 bytes");

// A frame as it comes out of a stack parser, before interning. Views point
// into the caller's buffer and are only read during the call.
struct RawFrame {
  std::string_view name;
  std::string_view resource;  // empty = no script (builtin/native)
  uint32_t line = 0;
  uint32_t column = 0;
};

// Append-only table of unique frames. Cap: `max_frames` rows, past which
// Intern() returns None and counts a drop.
class FrameTable {
 public:
  static constexpr uint32_t kDefaultMaxFrames = 1u << 22;
  explicit FrameTable(uint32_t max_frames = kDefaultMaxFrames)
      : max_frames_(max_frames) {}

  FrameId Intern(const Frame& f);
  const Frame& Get(FrameId id) const { return rows_[id.value]; }
  bool Contains(FrameId id) const { return id.value < rows_.size(); }
  uint32_t size() const { return static_cast<uint32_t>(rows_.size()); }
  const std::vector<Frame>& rows() const { return rows_; }
  uint64_t dropped() const { return dropped_; }
  size_t memory_bytes() const {
    return rows_.capacity() * sizeof(Frame) + index_.memory_bytes();
  }
  void Clear() {
    rows_.clear();
    index_.Clear();
    dropped_ = 0;
  }

 private:
  std::vector<Frame> rows_;
  InternIndex index_;
  uint32_t max_frames_;
  uint64_t dropped_ = 0;
};

}  // namespace webprof
