// Helpers every binding file shares: how text and errors cross the boundary.
#pragma once

#include <cstdint>
#include <string_view>

#include "status.h"

namespace webprof::bind {

// Text arrives as UTF-8 bytes the glue wrote with TextEncoder (js/core.mjs
// writeScratch); the view is valid until the glue's next write.
inline std::string_view View(uintptr_t ptr, uint32_t len) {
  return std::string_view(reinterpret_cast<const char*>(ptr), len);
}

// Id results: >= 0 an id, -1 none, other negatives -(status + 1)
// (js/core.mjs checkId decodes them).
inline int32_t Err(Status s) { return -static_cast<int32_t>(s) - 1; }

}  // namespace webprof::bind
