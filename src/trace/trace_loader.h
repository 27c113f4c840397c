// Loading a W3C ProfilerTrace dictionary (resources, frames, stacks,
// samples; e.g. one Chromium's native Profiler returned, or one that crossed
// a page boundary as JSON) into a core ProfilerTrace, re-interning every row:
// equal frames and (frame, parent) pairs merge, so duplicated W3C rows are
// fine, and ids become the core's.
//
// Rows arrive table by table in W3C numbering (resource/frame/stack indices
// into the W3C arrays; kNone for "absent"). Every call validates its rows and
// returns a Status; on error nothing from that call is kept (rows already
// interned by it stay in the tables, unreferenced: harmless).
//
// Samples are written once, straight into the trace's own storage:
// ReserveSamples(n) appends up to n rows contiguous in memory (the caller,
// e.g. JS over Wasm memory, fills each as two doubles [timestamp ms, W3C
// stack index or -1] — a Sample whose stack field still holds a double) and
// CommitSamples() validates them in time order with the session's one sample
// rule (session.h SampleTimeStatus) and converts each stack in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "trace/profiler_trace.h"

namespace webprof {

class TraceLoader {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  explicit TraceLoader(ProfilerTrace* trace) : trace_(trace) {}

  // The next W3C resource (its index is the number added before it).
  Status AddResource(std::string_view url);
  // The next W3C frame: `resource` a W3C resource index or kNone; line and
  // column 1-based, 0 = absent.
  Status AddFrame(std::string_view name, uint32_t resource, uint32_t line,
                  uint32_t column);
  // `count` stack rows [frame, parent or kNone] (W3C indices); a parent must
  // come before its child. On error the rows of this call are forgotten.
  Status AddStacks(const uint32_t* rows, size_t count);

  // Up to n sample rows to fill (see above); valid until CommitSamples(),
  // DropSamples() or the next ReserveSamples() (which drops them).
  SampleBuffer::Span ReserveSamples(size_t n);
  // Validates and converts the reserved rows; on error they are all dropped.
  Status CommitSamples();
  void DropSamples();

  // Whether any sample (or an empty sample table) was committed.
  bool has_samples() const { return has_samples_; }

 private:
  Status UndoStacks(Status s, size_t base);

  ProfilerTrace* trace_;  // not owned
  std::vector<uint32_t> resource_map_, frame_map_;
  // W3C stack index + 1 -> core StackId; entry 0 (W3C "no stack") is None.
  std::vector<uint32_t> stack_map_{StackId::None().value};
  // stack_map_[k] == k - 1 for every k (no W3C row was a duplicate): the
  // common case, where loading samples needs no lookup.
  bool stacks_identity_ = true;
  SampleBuffer::Span reserved_{};  // rows being filled, not yet committed
  size_t reserved_at_ = 0;         // index of reserved_.data[0]
  bool has_samples_ = false;
};

}  // namespace webprof
