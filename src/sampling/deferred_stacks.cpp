#include "sampling/deferred_stacks.h"

#include <algorithm>

namespace webprof {

size_t DeferredStacks::Take(double ts, Session* const* sessions, size_t n,
                            Status* results) {
  size_t kept = Add(ts, sessions, n, results);
  if (kept > 0) ++next_;
  return kept;
}

size_t DeferredStacks::TakeMany(const DueSample* due, size_t n,
                                SessionSet& set) {
  size_t kept = 0;
  set.ClearResults();
  for (size_t j = 0; j < n; ++j) {
    uint32_t mask = DueMask(due[j]);
    set.Select(mask);
    kept += Add(due[j].timestamp_ms, set.selected(), set.selected_count(),
                set.selected_results());
    set.Fold(mask);
  }
  if (kept > 0) ++next_;
  return kept;
}

size_t DeferredStacks::Add(double ts, Session* const* sessions, size_t n,
                           Status* results) {
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    Session* s = sessions[i];
    results[i] = s->TakeSample(ts, StackId::None());
    if (results[i] != Status::kOk) continue;
    uint32_t index = static_cast<uint32_t>(s->trace().samples().size() - 1);
    if (head_ > 0 && head_ * 2 >= entries_.size()) {
      entries_.erase(entries_.begin(), entries_.begin() + head_);
      head_ = 0;
    }
    entries_.push_back(Entry{s, index, next_});
    ++kept;
  }
  return kept;
}

template <typename Fn>
void DeferredStacks::PopOldest(Fn&& fn) {
  while (head_ < entries_.size() && entries_[head_].capture == oldest_) {
    fn(entries_[head_]);
    ++head_;
  }
  ReclaimIfDrained();
  ++oldest_;
}

void DeferredStacks::ReclaimIfDrained() {
  if (head_ != entries_.size()) return;
  entries_.clear();
  head_ = 0;
}

Status DeferredStacks::Resolve(StackSampler& sampler, std::string_view text,
                               StackFormat format) {
  if (pending() == 0) return Status::kOk;
  // A capture whose sessions were all forgotten needs no parse.
  if (head_ == entries_.size() || entries_[head_].capture != oldest_) {
    ReclaimIfDrained();
    ++oldest_;
    return Status::kOk;
  }
  Status parsed = sampler.Capture(text, format);
  if (parsed == Status::kUnclassifiedScript) return parsed;
  // On a parse error Capture() keeps no frame: InternInto gives None.
  // A capture of several samples (TakeMany): consecutive ones of one
  // session (one session runs, the common case) intern it once.
  Session* last = nullptr;
  StackId stack = StackId::None();
  PopOldest([&](const Entry& e) {
    if (e.session != last) {
      last = e.session;
      stack = sampler.InternInto(&e.session->trace());
    }
    e.session->SetSampleStack(e.sample, stack);
  });
  return parsed;
}

void DeferredStacks::Skip() {
  if (pending() > 0) PopOldest([](const Entry&) {});
}

void DeferredStacks::Forget(const Session* session) {
  entries_.erase(
      std::remove_if(entries_.begin() + head_, entries_.end(),
                     [&](const Entry& e) { return e.session == session; }),
      entries_.end());
  ReclaimIfDrained();
}

}  // namespace webprof
