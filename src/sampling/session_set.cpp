#include "sampling/session_set.h"

#include <algorithm>

namespace webprof {

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
  size_t k = 0;
  for (size_t i = 0; i < attached_.size(); ++i)
    results_[i] = Selected(i, mask) ? selected_results_[k++] : Status::kOk;
}

void SessionSet::TakeIdle(double ts, uint32_t mask) {
  for (size_t i = 0; i < attached_.size(); ++i)
    results_[i] = Selected(i, mask)
                      ? attached_[i]->TakeSample(ts, StackId::None())
                      : Status::kOk;
}

}  // namespace webprof
