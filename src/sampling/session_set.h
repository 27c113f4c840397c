// The sessions one sampler feeds, and which of them a given sample is for.
//
// The polyfill's sampler is one per page realm, but several W3C Profiler
// sessions may run at once, each with its own interval: a due sample carries
// a mask of the attached sessions it is due for (bit i = the i-th attached,
// in attach order; sessions past the last bit are always selected). Select()
// gathers those into contiguous arrays the sampler and the deferred stacks
// take; Spread() writes their outcomes back per attached session, where the
// unselected read kOk. The set never owns a session: a session is detached
// before it is destroyed.
//
// Several samples may share one captured stack (the ticker's ticks that
// passed while no check ran, js/profiler/dense.mjs): each is a DueSample,
// a time and its own mask, and a session's outcome over such a batch is the
// one that matters to JS — kBufferFull if one of its samples filled the
// buffer (samplebufferfull fires once), else its last selected sample's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "trace/session.h"

namespace webprof {

// One sample of a batch: when, and for which attached sessions. The mask is
// a double so JS writes a batch as one f64 array (every u32 is exact).
struct DueSample {
  double timestamp_ms;
  double mask;
};
// A DueSample's mask; one that is not a u32 (NaN, negative, too large)
// selects only the sessions past the mask's bits.
uint32_t DueMask(const DueSample& due);

class SessionSet {
 public:
  // The width of a sample's session mask.
  static constexpr int32_t kMaskBits = 32;
  static bool Selected(size_t i, uint32_t mask) {
    return i >= size_t(kMaskBits) || (mask >> i) & 1u;
  }

  // Adds `s` at the end (once); returns the number attached.
  size_t Attach(Session* s);
  // Removes `s`, keeping the others' order; returns the number left.
  size_t Detach(Session* s);
  size_t size() const { return attached_.size(); }

  // Gathers the sessions `mask` selects (and a kOk result slot for each).
  void Select(uint32_t mask);
  Session* const* selected() const { return selected_.data(); }
  size_t selected_count() const { return selected_.size(); }
  Status* selected_results() { return selected_results_.data(); }
  // Copies the selected results back to results() for `mask` (the mask of
  // the last Select), unselected sessions reading kOk.
  void Spread(uint32_t mask);
  // Starts a batch: every result reads kOk.
  void ClearResults();
  // Folds the selected results of `mask` (the last Select's) into results():
  // a session's kBufferFull stays, else its latest result replaces the last.
  void Fold(uint32_t mask);

  // A sample without a stack in every session `mask` selects.
  void TakeIdle(double timestamp_ms, uint32_t mask);
  // due[0..n) without a stack, in order; results() as a batch (above).
  void TakeIdle(const DueSample* due, size_t n);

  // One Status per attached session, in attach order, of the last
  // Spread()/TakeIdle(); stays at this address until the next Attach/Detach.
  const Status* results() const { return results_.data(); }

 private:
  std::vector<Session*> attached_;  // not owned
  std::vector<Status> results_;
  std::vector<Session*> selected_;  // reused per sample
  std::vector<Status> selected_results_;
};

}  // namespace webprof
