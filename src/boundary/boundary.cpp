#include "boundary/boundary.h"

namespace webprof::boundary {

const char* SessionStateName(SessionState s) {
  switch (s) {
#define WEBPROF_STATE_CASE(name, js) \
  case SessionState::name:           \
    return js;
    WEBPROF_SESSION_STATE_NAMES(WEBPROF_STATE_CASE)
#undef WEBPROF_STATE_CASE
  }
  return "unknown";
}

Status ConfigureSampler(StackSampler& sampler, int32_t kind,
                        std::string_view text) {
  switch (static_cast<SamplerConfig>(kind)) {
    case SamplerConfig::kOwnUrlPrefix:
      sampler.AddOwnUrlPrefix(text);
      return Status::kOk;
    case SamplerConfig::kOwnUrl:
      sampler.AddOwnUrl(text);
      return Status::kOk;
    case SamplerConfig::kOwnNameMarker:
      sampler.SetOwnNameMarker(text);
      return Status::kOk;
    case SamplerConfig::kNotMuted:
    case SamplerConfig::kMuted:
      sampler.ClassifyScript(text, kind == int32_t(SamplerConfig::kMuted));
      return Status::kOk;
    case SamplerConfig::kRequireClassified:
      sampler.RequireClassifiedScripts(!text.empty());
      return Status::kOk;
    case SamplerConfig::kKeepBuiltins:
      sampler.KeepBuiltinFrames(!text.empty());
      return Status::kOk;
  }
  return Status::kInvalidArgument;
}

}  // namespace webprof::boundary
