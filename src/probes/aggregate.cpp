#include "probes/aggregate.h"

namespace webprof {

bool AggregateTable::Grow() {
  // Called only when the free list is empty: every slot is open.
  if (slots_.size() >= kMaxSlots) {
    ++open_refused_;
    return false;
  }
  // Doubling keeps the amortised cost O(1); the array is kept across windows
  // so a steady workload stops growing after its first window.
  size_t old = slots_.size();
  size_t grown = old == 0 ? 64 : old * 2;
  if (grown > kMaxSlots) grown = kMaxSlots;
  slots_.resize(grown);
  for (size_t i = grown; i-- > old;) {
    slots_[i].next_free = free_head_;
    free_head_ = static_cast<uint32_t>(i);
  }
  return true;
}

void AggregateTable::StartNamed(StringId name, double t) {
  if (named_start_.size() <= name.value) {
    named_start_.resize(name.value + 1,
                        std::numeric_limits<double>::quiet_NaN());
  }
  named_start_[name.value] = t;
}

bool AggregateTable::AdmitEndNamed(StringId name) {
  if (name.value >= named_start_.size() || std::isnan(named_start_[name.value]))
    return false;
  if (CanFold(name)) return true;
  named_start_[name.value] = std::numeric_limits<double>::quiet_NaN();
  ++dropped_;
  return false;
}

bool AggregateTable::EndNamed(StringId name, double t) {
  if (!AdmitEndNamed(name)) return false;
  double start = named_start_[name.value];
  named_start_[name.value] = std::numeric_limits<double>::quiet_NaN();
  return Fold(name, t - start);
}

bool AggregateTable::Fold(StringId name, double duration) {
  if (!CanFold(name)) {
    ++dropped_;
    return false;
  }
  bool fresh = name.value >= buckets_.size() || !buckets_[name.value] ||
               buckets_[name.value]->histogram.count() == 0;
  if (buckets_.size() <= name.value) buckets_.resize(name.value + 1);
  std::unique_ptr<AggrStats>& b = buckets_[name.value];
  if (!b) {
    b = std::make_unique<AggrStats>();
    ++allocated_;
  }
  if (fresh) touched_.push_back(name.value);
  b->sum += duration;
  if (duration > b->max) b->max = duration;
  if (duration < b->min) b->min = duration;
  b->histogram.Add(duration);
  return true;
}

void AggregateTable::ResetOpen() {
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].next_free == kInUse) Release(i);
  }
}

void AggregateTable::ResetBuckets() {
  // Past the cap of live buckets, this window's are freed (the cap bounds
  // the older windows' ones that stay).
  bool free_them = allocated_ > kMaxAggregates;
  for (uint32_t name : touched_) {
    if (free_them) {
      buckets_[name].reset();
      --allocated_;
      continue;
    }
    AggrStats& b = *buckets_[name];
    b.sum = 0;
    b.max = -std::numeric_limits<double>::infinity();
    b.min = std::numeric_limits<double>::infinity();
    b.histogram.Clear();
  }
  touched_.clear();
  dropped_ = 0;
}

}  // namespace webprof
