#include "probes/timeline.h"

#include <cmath>
#include <limits>

namespace webprof {

void MarkTimeline::Reset(uint32_t limit) {
  events_.clear();  // keeps capacity: a steady workload stops allocating
  dropped_ = 0;
  limit_ = limit < 2 ? 2 : limit;
}

bool MarkTimeline::Add(StringId name, double t, int32_t info) {
  if (events_.size() + 1 >= limit_) {
    ++dropped_;
    return false;
  }
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

int32_t TraceTimeline::Start(StringId name, double t, bool named) {
  int32_t index = -1;
  if (events_.size() < limit_) {
    index = static_cast<int32_t>(events_.size());
    events_.push_back(TraceRecord{name, kNoInfo, t,
                                  std::numeric_limits<double>::quiet_NaN()});
  } else {
    ++dropped_;
  }
  if (named) {
    if (named_open_.size() <= name.value) {
      named_open_.resize(name.value + 1, -1);
    }
    // Overwrite even on a drop (see the header): the older event stays open
    // and is counted incomplete at Finish().
    if (named_open_[name.value] == -1 && index != -1) {
      named_touched_.push_back(name.value);
    }
    named_open_[name.value] = index;
  }
  if (index == -1) return -1;
  return static_cast<int32_t>((window_gen_ << kIndexBits) |
                              static_cast<uint32_t>(index));
}

bool TraceTimeline::EndIndex(uint32_t index, double t, int32_t info) {
  if (index >= events_.size()) return false;
  TraceRecord& e = events_[index];
  if (!std::isnan(e.duration)) return false;  // already ended
  e.duration = t - e.timestamp;
  e.info = info;
  return true;
}

bool TraceTimeline::End(int32_t id, double t, int32_t info) {
  if (id < 0) return false;
  uint32_t u = static_cast<uint32_t>(id);
  if ((u >> kIndexBits) != window_gen_) return false;  // an older window's
  return EndIndex(u & (kMaxLimit - 1), t, info);
}

bool TraceTimeline::EndNamed(StringId name, double t, int32_t info) {
  if (name.value >= named_open_.size()) return false;
  int32_t index = named_open_[name.value];
  if (index < 0) return false;
  named_open_[name.value] = -1;  // consumed
  return EndIndex(static_cast<uint32_t>(index), t, info);
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
