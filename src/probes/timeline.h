// Mark and trace timelines of a recording window (seed 004 "点序列统计" and
// "区段序列统计").
//
// Both keep events in start order in flat vectors whose capacity survives
// windows, and both have a per-window limit past which an event is counted
// in `dropped` and nothing else (no time, no name, no info) is stored.
//
// Info is a JS object kept by reference, which the core cannot hold: the
// glue keeps the objects in an array and the core stores the integer slot
// (kNoInfo = none). Times are raw clock values in ms given by the caller; the
// core never reads a clock.
//
// Traces are reserved when they start (duration NaN = open) and back-filled
// when they end, so nested traces come out in start order; Finish() removes
// the ones still open and counts them as incomplete. Trace ids pack
// (window generation << kIndexBits | index) below 2^30 (V8 small ints), so an
// id kept from an old window names no event of the new one; the generation is
// kWindowGenBits wide (an id 1024 windows old could match again, and only if
// its index is open then).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "base/ids.h"

namespace webprof {

constexpr int32_t kNoInfo = -1;

struct MarkRecord {
  StringId name;
  int32_t info = kNoInfo;  // glue-side info slot
  double timestamp = 0;    // raw clock, ms
  bool boundary = false;   // the automatic start/end marks
};

struct TraceRecord {
  StringId name;
  int32_t info = kNoInfo;
  double timestamp = 0;  // raw clock at traceStart, ms
  double duration = 0;   // ms; NaN while open
};

class MarkTimeline {
 public:
  // Empties the timeline for a window holding at most `limit` (>= 2) marks,
  // the last slot being kept for the end boundary.
  void Reset(uint32_t limit);
  // Admission, before the clock is read (see AggregateTable::AdmitStart):
  // whether Add() would store a mark; a refusal is counted as dropped.
  bool Admit();
  // An explicit mark: stored if fewer than limit - 1 marks exist, else
  // counted as dropped. Returns whether it was stored.
  bool Add(StringId name, double t, int32_t info);
  // The start/end boundary: always stored (the start is the first event of
  // an empty timeline, the end uses the reserved slot).
  void AddBoundary(StringId name, double t);

  const std::vector<MarkRecord>& events() const { return events_; }
  uint64_t dropped() const { return dropped_; }
  uint32_t limit() const { return limit_; }

 private:
  std::vector<MarkRecord> events_;
  uint64_t dropped_ = 0;
  uint32_t limit_ = 2;
};

class TraceTimeline {
 public:
  static constexpr int kIndexBits = 20;
  static constexpr int kWindowGenBits = 10;
  static constexpr uint32_t kMaxLimit = 1u << kIndexBits;
  static_assert(kIndexBits + kWindowGenBits <= 30, "ids stay small ints");

  // Empties the timeline for window `window_gen` with at most `limit`
  // (<= kMaxLimit) accepted traces; 0 stores none.
  void Reset(uint32_t limit, uint32_t window_gen);

  // Admission, before the clock is read (see AggregateTable::AdmitStart):
  // whether Start/End/EndNamed with these arguments would be accepted. A
  // refusal is done here: a start past the limit is counted as dropped (a
  // named one detaches its name, as Start() does); EndNamed's name is
  // consumed when its event was already ended by id.
  bool AdmitStart(StringId name, bool named);
  bool AdmitEnd(int32_t id) const;
  bool AdmitEndNamed(StringId name);

  // Reserves an event; returns its id, or -1 when the limit is reached
  // (counted as dropped). With `named`, the event becomes the one that
  // EndNamed(name) ends; a previous open same-name event is detached and
  // will be counted incomplete. A dropped named start detaches it too, so
  // the next EndNamed(name) cannot end the older event by mistake.
  int32_t Start(StringId name, double t, bool named);
  // Back-fills duration and info. False (no change) for a stale, unknown or
  // already ended id.
  bool End(int32_t id, double t, int32_t info);
  bool EndNamed(StringId name, double t, int32_t info);
  // Window end: removes open events (counted in incomplete), keeping order.
  void Finish();

  const std::vector<TraceRecord>& events() const { return events_; }
  uint64_t dropped() const { return dropped_; }
  uint64_t incomplete() const { return incomplete_; }
  uint32_t limit() const { return limit_; }

 private:
  bool EndIndex(uint32_t index, double t, int32_t info);
  bool IsOpen(uint32_t index) const {
    return index < events_.size() && std::isnan(events_[index].duration);
  }

  std::vector<TraceRecord> events_;
  std::vector<int32_t> named_open_;  // by StringId: open event index or -1
  std::vector<uint32_t> named_touched_;
  uint64_t dropped_ = 0;
  uint64_t incomplete_ = 0;
  uint32_t limit_ = 0;
  uint32_t window_gen_ = 0;
};

}  // namespace webprof
