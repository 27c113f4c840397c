// Helpers every binding file shares: how text and errors cross the boundary.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "sampling/stack_sampler.h"
#include "trace/session.h"

namespace webprof::bind {

// Text arrives as UTF-8 bytes the glue wrote with TextEncoder (js/core.mjs
// writeScratch); the view is valid until the glue's next write.
inline std::string_view View(uintptr_t ptr, uint32_t len) {
  return std::string_view(reinterpret_cast<const char*>(ptr), len);
}

// Id results: >= 0 an id, -1 none, other negatives -(status + 1)
// (js/core.mjs checkId decodes them).
inline int32_t Err(Status s) { return -static_cast<int32_t>(s) - 1; }

// The sampler configuration both samplers take from the glue (the W3C
// Profiler's and RuntimeProfiler's): kind 0 = an own-URL prefix, 1 = the own
// function-name marker, 2 = a script that is not muted, 3 = a CORS-muted
// script, 4 = require classified scripts, 5 = keep builtin frames (4 and 5:
// text non-empty = on).
inline int32_t ConfigureSampler(StackSampler& s, int32_t kind,
                                std::string_view text) {
  switch (kind) {
    case 0:
      s.AddOwnUrlPrefix(text);
      return 0;
    case 1:
      s.SetOwnNameMarker(text);
      return 0;
    case 2:
    case 3:
      s.ClassifyScript(text, kind == 3);
      return 0;
    case 4:
      s.RequireClassifiedScripts(!text.empty());
      return 0;
    case 5:
      s.KeepBuiltinFrames(!text.empty());
      return 0;
  }
  return static_cast<int32_t>(Status::kInvalidArgument);
}

// The script URLs the sampler's last capture refused as unclassified,
// '\n'-joined (the glue classifies each and retries).
inline void JoinUnclassified(const StackSampler& s, std::string* out) {
  out->clear();
  for (std::string_view u : s.unclassified_scripts()) {
    out->append(u.data(), u.size());
    out->push_back('\n');
  }
}

// Drops the polyfill sampler's deferred samples of `session` (defined in
// bind_profiler.cpp); called before a Session is destroyed.
void ForgetDeferredSamples(const Session* session);

}  // namespace webprof::bind
