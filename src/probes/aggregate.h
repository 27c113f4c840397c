// Aggregated spans (seed 004 "区段聚类统计": aggrStart / aggrEnd).
//
// A hot path (a render, a hook) may run millions of times in a window, so
// spans are folded into one bucket per name as they end: count, sum, max,
// min and a LogHistogram for p50/p90/p99; nothing per sample is kept.
//
// Id mode: an open span lives in a slot of a flat array; free slots form an
// intrusive LIFO free list, so steady state allocates nothing. The id handed
// to JS packs (generation << kSlotBits | slot) and stays below 2^30 so V8
// keeps it a small integer (no heap number per call). Ending a span bumps the
// slot's generation, so a second end of the same id, or an id from a window
// that has since closed (ResetOpen() bumps every open slot), no longer
// matches and is a safe no-op instead of ending whatever reused the slot.
// Generations are kGenBits wide: a stale id could only match again after
// exactly a multiple of 2^14 reuses of its slot in between.
//
// Name mode: one pending start time per name (NaN = none). A later start of
// the same name overwrites; the start may predate the window (the end must be
// inside it, which the Recorder checks).
//
// Names are StringIds of the Recorder's table; buckets are indexed by them
// and a window's touched names are listed so Reset() is O(touched).
//
// Cap: at most kMaxAggregates distinct names are folded per window; a span
// of a further name is dropped (counted in dropped(), reported with the
// window) — never an abort. A bucket (AggrStats, ≈10 KB: its histogram) is
// allocated when its name is first folded and kept for the next windows
// while at most kMaxAggregates buckets exist; past that, the window's
// buckets are freed at its reset, so live buckets never exceed
// 2 * kMaxAggregates (≈20 MB) however many names a page invents.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "base/ids.h"
#include "probes/histogram.h"

namespace webprof {

struct AggrStats {
  // The count is histogram.count(): every duration lands there exactly once.
  double sum = 0;
  double max = -std::numeric_limits<double>::infinity();
  double min = std::numeric_limits<double>::infinity();
  LogHistogram histogram;
};

class AggregateTable {
 public:
  static constexpr int kSlotBits = 16;
  static constexpr int kGenBits = 14;
  static constexpr uint32_t kMaxSlots = 1u << kSlotBits;
  static constexpr uint32_t kGenMask = (1u << kGenBits) - 1;
  static constexpr uint32_t kNoSlot = 0xFFFFFFFFu;
  static_assert(kSlotBits + kGenBits <= 30, "ids must stay V8 small ints");
  static constexpr uint32_t kMaxAggregates = 1024;

  // Admission, asked before the clock is read: the glue reads it only for
  // an admitted call, so a span that would be dropped costs no clock read.
  // A refusal is done here (counted, consumed); an admission changes
  // nothing and the call that follows with a time is accepted.
  //  - AdmitStart: false when kMaxSlots spans are open (open_refused()) or
  //    the name could not be folded this window (dropped()).
  //  - AdmitEnd: false for a negative, unknown, stale or ended id (nothing
  //    changes), and for a live span whose name cannot be folded (the span
  //    is closed and counted in dropped()).
  //  - AdmitEndNamed: false without a pending start, and for one whose name
  //    cannot be folded (the start is consumed, counted in dropped()).
  bool AdmitStart(StringId name) {
    if (free_head_ == kNoSlot && !Grow()) return false;
    if (CanFold(name)) return true;
    ++dropped_;
    return false;
  }
  bool AdmitEnd(int32_t id) {
    uint32_t slot = LiveSlot(id);
    if (slot == kNoSlot) return false;
    if (CanFold(StringId(slots_[slot].name))) return true;
    ++dropped_;
    Release(slot);
    return false;
  }
  bool AdmitEndNamed(StringId name);

  // Opens an id-mode span of `name` at `t`; returns its id, or -1 when
  // AdmitStart(name) refuses it.
  int32_t Start(StringId name, double t) {
    if (!AdmitStart(name)) return -1;
    uint32_t slot = free_head_;
    Slot& s = slots_[slot];
    free_head_ = s.next_free;
    ++open_;
    s.name = name.value;
    s.start = t;
    s.next_free = kInUse;
    return static_cast<int32_t>((s.gen << kSlotBits) | slot);
  }

  // Ends span `id` at `t` and folds it into its name's bucket. Returns false
  // (changing nothing) for a negative, unknown, stale or already ended id.
  // (AdmitEnd() says which.)
  bool End(int32_t id, double t) {
    if (!AdmitEnd(id)) return false;
    uint32_t slot = static_cast<uint32_t>(id) & (kMaxSlots - 1);
    Fold(StringId(slots_[slot].name), t - slots_[slot].start);
    Release(slot);
    return true;
  }

  // Name mode.
  void StartNamed(StringId name, double t);
  // Folds the pending start of `name` ending at `t`; false if none.
  bool EndNamed(StringId name, double t);

  // Adds one duration to `name`'s bucket; false (counted in dropped()) when
  // the name would be the window's kMaxAggregates + 1st.
  bool Fold(StringId name, double duration);
  // Whether a span of `name` could be folded now: its bucket has spans this
  // window, or fewer than kMaxAggregates names have.
  bool CanFold(StringId name) const {
    return (name.value < buckets_.size() && buckets_[name.value] &&
            buckets_[name.value]->histogram.count() != 0) ||
           touched_.size() < kMaxAggregates;
  }

  // Closes every open id-mode span without folding it (window boundary):
  // their ids become stale. Name-mode starts are kept (they may predate a
  // window by design).
  void ResetOpen();
  // Empties the buckets of the names touched since the last Reset().
  void ResetBuckets();

  // Names with at least one folded span this window, in first-fold order.
  const std::vector<uint32_t>& touched() const { return touched_; }
  const AggrStats& stats(StringId name) const { return *buckets_[name.value]; }
  uint32_t open_spans() const { return open_; }
  uint64_t open_refused() const { return open_refused_; }
  // Spans dropped this window by the kMaxAggregates cap.
  uint64_t dropped() const { return dropped_; }
  // Buckets allocated now (memory: * sizeof(AggrStats)).
  uint32_t buckets_allocated() const { return allocated_; }

 private:
  static constexpr uint32_t kInUse = 0xFFFFFFFEu;
  struct Slot {
    uint32_t name = 0;
    uint32_t gen = 0;
    uint32_t next_free = kNoSlot;  // kInUse while the span is open
    double start = 0;
  };

  bool Grow();  // adds free slots; false at kMaxSlots
  // The slot of open span `id`, or kNoSlot (negative, unknown, stale, ended).
  uint32_t LiveSlot(int32_t id) const {
    if (id < 0) return kNoSlot;
    uint32_t slot = static_cast<uint32_t>(id) & (kMaxSlots - 1);
    uint32_t gen = static_cast<uint32_t>(id) >> kSlotBits;
    if (slot >= slots_.size()) return kNoSlot;
    const Slot& s = slots_[slot];
    return s.next_free == kInUse && s.gen == gen ? slot : kNoSlot;
  }
  void Release(uint32_t slot) {
    Slot& s = slots_[slot];
    s.gen = (s.gen + 1) & kGenMask;
    s.next_free = free_head_;
    free_head_ = slot;
    --open_;
  }

  std::vector<Slot> slots_;
  uint32_t free_head_ = kNoSlot;
  uint32_t open_ = 0;
  uint64_t open_refused_ = 0;
  uint64_t dropped_ = 0;
  uint32_t allocated_ = 0;                           // non-null buckets_
  std::vector<std::unique_ptr<AggrStats>> buckets_;  // by StringId
  std::vector<uint32_t> touched_;
  std::vector<double> named_start_;  // by StringId; NaN = no pending start
};

}  // namespace webprof
