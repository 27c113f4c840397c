#include "sampling/session_set.h"

#include <algorithm>

namespace webprof {

uint32_t DueMask(const DueSample& due) {
  double m = due.mask;
  return m >= 0 && m <= 4294967295.0 ? static_cast<uint32_t>(m) : 0;
}

size_t SessionSet::Attach(Session* s) {
  if (std::find(attached_.begin(), attached_.end(), s) == attached_.end())
    attached_.push_back(s);
  results_.assign(attached_.size(), Status::kOk);
  return attached_.size();
}

size_t SessionSet::Detach(Session* s) {
  attached_.erase(std::remove(attached_.begin(), attached_.end(), s),
                  attached_.end());
  results_.assign(attached_.size(), Status::kOk);
  return attached_.size();
}

void SessionSet::Select(uint32_t mask) {
  selected_.clear();
  for (size_t i = 0; i < attached_.size(); ++i)
    if (Selected(i, mask)) selected_.push_back(attached_[i]);
  selected_results_.assign(selected_.size(), Status::kOk);
}

void SessionSet::Spread(uint32_t mask) {
  ClearResults();
  Fold(mask);
}

void SessionSet::ClearResults() {
  std::fill(results_.begin(), results_.end(), Status::kOk);
}

void SessionSet::Fold(uint32_t mask) {
  size_t k = 0;
  for (size_t i = 0; i < attached_.size(); ++i) {
    if (!Selected(i, mask)) continue;
    Status r = selected_results_[k++];
    if (results_[i] != Status::kBufferFull) results_[i] = r;
  }
}

void SessionSet::TakeIdle(double ts, uint32_t mask) {
  for (size_t i = 0; i < attached_.size(); ++i)
    results_[i] = Selected(i, mask)
                      ? attached_[i]->TakeSample(ts, StackId::None())
                      : Status::kOk;
}

void SessionSet::TakeIdle(const DueSample* due, size_t n) {
  ClearResults();
  for (size_t j = 0; j < n; ++j) {
    uint32_t mask = DueMask(due[j]);
    Select(mask);
    for (size_t k = 0; k < selected_.size(); ++k)
      selected_results_[k] =
          selected_[k]->TakeSample(due[j].timestamp_ms, StackId::None());
    Fold(mask);
  }
}

}  // namespace webprof
