// Loading a W3C ProfilerTrace dictionary (resources, frames, stacks,
// samples; e.g. one Chromium's native Profiler returned, or one that crossed
// a page boundary as JSON) into a core ProfilerTrace, re-interning every row:
// equal frames and (frame, parent) pairs merge, so duplicated W3C rows are
// fine, and ids become the core's. It is the one importer of a W3C trace:
// exporting a trace object and importing a native one (js/profiler/trace.mjs
// loadTrace) both go through it, with the same acceptance rules.
//
// Rows arrive table by table in W3C numbering (resource/frame/stack indices
// into the W3C arrays; kNone for "absent"). Every call validates its rows and
// returns a Status; on error nothing from that call is kept (rows already
// interned by it stay in the tables, unreferenced: harmless). A stack's
// parent must be an earlier row: a self-parented stack, a cycle or any
// forward reference is refused (kParentNotBefore), so no walk up a stack
// can loop.
//
// Samples are written once, straight into the trace's own storage:
// ReserveSamples(n) appends up to n rows contiguous in memory (the caller,
// e.g. JS over Wasm memory, fills each as two doubles [timestamp ms, W3C
// stack index or -1] — a Sample whose stack field still holds a double) and
// CommitSamples() validates them in time order with the session's one sample
// rule (session.h SampleTimeStatus) and converts each stack in place. As
// sampled, a sample earlier than the one before it is accepted (Chromium's
// trace of two concurrent native profilers holds such samples) and Finish()
// puts the samples in time order (stable) after the last commit.
//
// Joining: a loader on a trace that already holds samples (another load's)
// adds to it — one thread's traces recorded on different time bases, such
// as the documents a page went through, each timed from its own time
// origin. Its rows intern into the same tables (a function both traces ran
// is one frame), `time_offset_ms` moves its sample times onto the common
// base, the time rule applies within this load, and where its samples come
// before the earlier loads' latest, Finish() merges them in time order
// (stable: the earlier load's sample first on a tie).
//
// Two ways to load (LoadOptions), for the two reasons to load:
//  - as given (an export): every row is kept and stacks are numbered in W3C
//    order, so a trace that already has the core's shape keeps its ids;
//  - as sampled (a trace another profiler recorded on a page running
//    webprof, e.g. Chromium's native one): webprof's own frames (the stack
//    sampler's rule, OwnFrameRule) and frames of resources the caller hides
//    (CORS-muted scripts) map to their caller — a stack row with such a
//    frame is its parent's stack — and stacks are interned when a sample
//    first reaches them, parents first, so ids follow first use and no
//    unsampled stack is kept, exactly as the polyfill numbers its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "trace/profiler_trace.h"

namespace webprof {

// "Is this frame webprof's own?" — decided once, by the stack sampler
// (sampling/stack_sampler.h implements it); declared here so the loader
// can apply it without depending on sampling/.
class OwnFrameRule {
 public:
  virtual bool IsOwnScript(std::string_view url) const = 0;
  virtual bool IsOwnName(std::string_view name) const = 0;

 protected:
  ~OwnFrameRule() = default;
};

struct LoadOptions {
  // Not null: load as sampled (see above) with this rule for own frames.
  const OwnFrameRule* as_sampled = nullptr;
  // Added to every sample's time (ms) before the time rule: a trace timed
  // from another origin joins the trace's time base (see above).
  double time_offset_ms = 0;
};

class TraceLoader {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  explicit TraceLoader(ProfilerTrace* trace, LoadOptions options = {})
      : trace_(trace),
        own_(options.as_sampled),
        offset_(options.time_offset_ms),
        joined_at_(trace->samples().size()) {}

  // The next W3C resource (its index is the number added before it).
  // `hidden`: its frames are not the page's (as sampled only; e.g. a
  // CORS-muted script, which the page side decides).
  Status AddResource(std::string_view url, bool hidden = false);
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
  // After the last CommitSamples(): as sampled, orders samples that came
  // out of time order; as given, nothing to do (they were refused).
  void Finish();

  // Whether any sample (or an empty sample table) was committed.
  bool has_samples() const { return has_samples_; }

 private:
  // A resource or frame row that maps to nothing (hidden, as sampled).
  static constexpr uint32_t kHidden = 0xFFFFFFFFu;
  // A stack row not interned yet (as sampled); never a StackId (caps are
  // far below it) nor None.
  static constexpr uint32_t kUnresolved = 0xFFFFFFFEu;

  Status UndoStacks(Status s, size_t base);
  // Interns W3C stack key `key` (index + 1) and its unresolved ancestors.
  Status Resolve(uint32_t key, uint32_t* out);

  ProfilerTrace* trace_;     // not owned
  const OwnFrameRule* own_;  // not owned; null: load as given
  const double offset_;      // ms added to every sample's time
  const size_t joined_at_;   // samples of earlier loads (joining when > 0)
  std::vector<uint32_t> resource_map_, frame_map_;  // kHidden: dropped
  // W3C stack index + 1 -> core StackId (kUnresolved until first use, as
  // sampled); entry 0 (W3C "no stack") is None.
  std::vector<uint32_t> stack_map_{StackId::None().value};
  // As sampled: each row's [core frame or kHidden, parent's key], for
  // Resolve(); a parent's key is always below its child's.
  std::vector<std::pair<uint32_t, uint32_t>> rows_;
  std::vector<uint32_t> chain_;  // Resolve()'s walk, reused
  // stack_map_[k] == k - 1 for every k (no W3C row was a duplicate): the
  // common case, where loading samples needs no lookup.
  bool stacks_identity_ = true;
  SampleBuffer::Span reserved_{};  // rows being filled, not yet committed
  size_t reserved_at_ = 0;         // index of reserved_.data[0]
  // As sampled: the first committed sample earlier than the one before it
  // (SIZE_MAX: none), where Finish() starts ordering.
  size_t unordered_from_ = SIZE_MAX;
  bool has_samples_ = false;
};

}  // namespace webprof
