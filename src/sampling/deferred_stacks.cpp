#include "sampling/deferred_stacks.h"

#include <algorithm>

namespace webprof {

size_t DeferredStacks::Take(double ts, Session* const* sessions, size_t n,
                            Status* results) {
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    Session* s = sessions[i];
    results[i] = s->TakeSample(ts, StackId::None());
    if (results[i] != Status::kOk) continue;
    uint32_t index = static_cast<uint32_t>(s->trace().samples().size() - 1);
    entries_.push_back(Entry{s, index, next_});
    ++kept;
  }
  if (kept > 0) ++next_;
  return kept;
}

template <typename Fn>
void DeferredStacks::PopOldest(Fn&& fn) {
  while (!entries_.empty() && entries_.front().capture == oldest_) {
    fn(entries_.front());
    entries_.pop_front();
  }
  ++oldest_;
}

Status DeferredStacks::Resolve(StackSampler& sampler, std::string_view text,
                               StackFormat format) {
  if (pending() == 0) return Status::kOk;
  // A capture whose sessions were all forgotten needs no parse.
  if (entries_.empty() || entries_.front().capture != oldest_) {
    ++oldest_;
    return Status::kOk;
  }
  Status parsed = sampler.Capture(text, format);
  if (parsed == Status::kUnclassifiedScript) return parsed;
  // On a parse error Capture() keeps no frame: InternInto gives None.
  PopOldest([&](const Entry& e) {
    e.session->SetSampleStack(e.sample,
                              sampler.InternInto(&e.session->trace()));
  });
  return parsed;
}

void DeferredStacks::Skip() {
  if (pending() > 0) PopOldest([](const Entry&) {});
}

void DeferredStacks::Forget(const Session* session) {
  entries_.erase(
      std::remove_if(entries_.begin(), entries_.end(),
                     [&](const Entry& e) { return e.session == session; }),
      entries_.end());
}

}  // namespace webprof
