#include "runtime/runtime_profile.h"

namespace webprof {

Status RuntimeProfile::Annotate(std::string_view text, ProfilerTrace* trace,
                                uint32_t* slot) {
  Status st = sampler_.Capture(text, StackFormat::kAuto);
  if (st != Status::kOk) return st;  // nothing recorded for unreadable text
  *slot = annotations_.SlotOf(sampler_.InternInto(trace));
  return Status::kOk;
}

const std::string& RuntimeProfile::ResultsJson(
    const ProfilerTrace& trace, const FrameDefinitions* definitions) {
  tree_.Build(trace, &annotations_, definitions);
  json_.clear();
  tree_.WriteJson(trace, &json_);
  return json_;
}

}  // namespace webprof
