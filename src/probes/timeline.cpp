#include "probes/timeline.h"

#include <cmath>
#include <limits>

namespace webprof {

void MarkTimeline::Reset(uint32_t limit) {
  events_.clear();  // keeps capacity: a steady workload stops allocating
  dropped_ = 0;
  limit_ = limit < 2 ? 2 : limit;
}

bool MarkTimeline::Admit() {
  if (events_.size() + 1 < limit_) return true;
  ++dropped_;
  return false;
}

bool MarkTimeline::Add(StringId name, double t, int32_t info) {
  if (!Admit()) return false;
  events_.push_back(MarkRecord{name, info, t, false});
  return true;
}

void MarkTimeline::AddBoundary(StringId name, double t) {
  events_.push_back(MarkRecord{name, kNoInfo, t, true});
}

void TraceTimeline::Reset(uint32_t limit, uint32_t window_gen) {
  events_.clear();
  for (uint32_t n : named_touched_) named_open_[n] = -1;
  named_touched_.clear();
  dropped_ = 0;
  incomplete_ = 0;
  limit_ = limit > kMaxLimit ? kMaxLimit : limit;
  window_gen_ = window_gen & ((1u << kWindowGenBits) - 1);
}

bool TraceTimeline::AdmitStart(StringId name, bool named) {
  if (events_.size() < limit_) return true;
  ++dropped_;
  // Detach the name even on a drop (see the header): the older event stays
  // open and is counted incomplete at Finish().
  if (named && name.value < named_open_.size()) named_open_[name.value] = -1;
  return false;
}

int32_t TraceTimeline::Start(StringId name, double t, bool named) {
  if (!AdmitStart(name, named)) return -1;
  int32_t index = static_cast<int32_t>(events_.size());
  events_.push_back(
      TraceRecord{name, kNoInfo, t, std::numeric_limits<double>::quiet_NaN()});
  if (named) {
    if (named_open_.size() <= name.value) {
      named_open_.resize(name.value + 1, -1);
    }
    if (named_open_[name.value] == -1) named_touched_.push_back(name.value);
    named_open_[name.value] = index;
  }
  return static_cast<int32_t>((window_gen_ << kIndexBits) |
                              static_cast<uint32_t>(index));
}

bool TraceTimeline::EndIndex(uint32_t index, double t, int32_t info) {
  if (!IsOpen(index)) return false;  // unknown or already ended
  TraceRecord& e = events_[index];
  e.duration = t - e.timestamp;
  e.info = info;
  return true;
}

bool TraceTimeline::AdmitEnd(int32_t id) const {
  if (id < 0) return false;
  uint32_t u = static_cast<uint32_t>(id);
  if ((u >> kIndexBits) != window_gen_) return false;  // an older window's
  return IsOpen(u & (kMaxLimit - 1));
}

bool TraceTimeline::End(int32_t id, double t, int32_t info) {
  if (!AdmitEnd(id)) return false;
  return EndIndex(static_cast<uint32_t>(id) & (kMaxLimit - 1), t, info);
}

bool TraceTimeline::AdmitEndNamed(StringId name) {
  if (name.value >= named_open_.size()) return false;
  int32_t index = named_open_[name.value];
  if (index < 0) return false;
  if (IsOpen(static_cast<uint32_t>(index))) return true;
  named_open_[name.value] = -1;  // consumed: its event was ended by id
  return false;
}

bool TraceTimeline::EndNamed(StringId name, double t, int32_t info) {
  if (!AdmitEndNamed(name)) return false;
  uint32_t index = static_cast<uint32_t>(named_open_[name.value]);
  named_open_[name.value] = -1;  // consumed
  return EndIndex(index, t, info);
}

void TraceTimeline::Finish() {
  size_t kept = 0;
  for (size_t i = 0; i < events_.size(); ++i) {
    if (std::isnan(events_[i].duration)) {
      ++incomplete_;
    } else {
      events_[kept++] = events_[i];
    }
  }
  events_.resize(kept);
  for (uint32_t n : named_touched_) named_open_[n] = -1;
  named_touched_.clear();
}

}  // namespace webprof
