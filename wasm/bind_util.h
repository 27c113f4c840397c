// Helpers every binding file shares: how text and errors cross the boundary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "boundary/boundary.h"
#include "boundary/health.h"
#include "probes/window.h"
#include "sampling/stack_sampler.h"
#include "trace/session.h"

// An export off the per-sample and per-probe paths: optimised for size where
// the bindings are compiled for speed (the tools module and the Node-side
// core, wasm/CMakeLists.txt), so what it reaches (a trace's destructor, a
// window's end, the reporter's text) is called rather than inlined into it
// at -O3.
#define WP_COLD __attribute__((minsize))

namespace webprof::bind {

// The instance's health (src/boundary/health.h), defined in
// bind_boundary.cpp. Every export that does work opens an Entry on it
// first; a refused entry returns Status::kTrapped (or, where the result is
// an id, Err(kTrapped); a count or flag, 0) and touches nothing. Pure reads
// of a result buffer (wp_profiler_results, ..._len) need no entry.
extern boundary::Health instance_health;
constexpr int32_t kTrapped = static_cast<int32_t>(Status::kTrapped);

// Text arrives as UTF-8 bytes the glue wrote with TextEncoder
// (js/core/boundary.mjs writeScratch); the view is valid until the glue's next
// write.
inline std::string_view View(uintptr_t ptr, uint32_t len) {
  return std::string_view(reinterpret_cast<const char*>(ptr), len);
}

// Id results: >= 0 an id, kNoId none, other negatives a Status
// (boundary.h EncodeStatus; js/core/core.mjs checkId decodes them).
inline int32_t Err(Status s) { return boundary::EncodeStatus(s); }

// The script URLs the sampler's last capture refused as unclassified,
// '\n'-joined (the glue classifies each and retries).
inline void JoinUnclassified(const StackSampler& s, std::string* out) {
  out->clear();
  for (std::string_view u : s.unclassified_scripts()) {
    out->append(u.data(), u.size());
    out->push_back('\n');
  }
}

// What the page's sampler and probes lend the trace and export bindings:
// defined in bind_profiler.cpp and bind_probes.cpp where those are linked,
// in bind_lent_none.cpp for the tools module (wasm/CMakeLists.txt), which
// links the session, loader and exporter bindings without either — it has no
// sampler (no deferred samples, no own-frame rule: traces are loaded into it
// as given) and no recorder (exports take probes windows as records). A build
// that links neither definition fails to link; a pointer makes every caller
// say what "none" means.
//
// The explicit probes' recorder of this instance (exporters and the console
// reporter read its last window); null where there is none.
const Recorder* ProbesRecorderIfAny();

// Walks a blob of consecutive UTF-8 strings given their byte lengths (the
// bulk form JS writes a table's strings in).
class Strings {
 public:
  Strings(uintptr_t blob, uintptr_t lens)
      : p_(reinterpret_cast<const char*>(blob)),
        lens_(reinterpret_cast<const uint32_t*>(lens)) {}
  std::string_view Next() {
    std::string_view s(p_, lens_[i_++]);
    p_ += s.size();
    return s;
  }

 private:
  const char* p_;
  const uint32_t* lens_;
  size_t i_ = 0;
};

// A call's result that is more than a number: bytes (text, a row table)
// JS reads at wp_result() for wp_result_len() bytes after the call
// (js/core/bindings.mjs). Plain exports cannot return a string or a view, so
// they leave it here (bind_result.cpp); the bytes stay valid until the next
// core call. SetResult points at memory the caller keeps alive (a table's
// rows); SetResultText keeps its own copy.
void SetResult(const void* data, size_t bytes);
void SetResultText(std::string text);
template <typename Rows>
void SetResultRows(const Rows& rows) {
  SetResult(rows.data(), rows.size() * sizeof(typename Rows::value_type));
}

// The polyfill sampler of this instance (see ProbesRecorderIfAny): its
// own-frame rule also filters a native trace loaded as sampled; null where
// there is none.
const StackSampler* PageSamplerIfAny();

// Drops the polyfill sampler's deferred samples of `session` (nothing where
// there is no sampler); called before a Session is destroyed.
void ForgetDeferredSamples(const Session* session);

}  // namespace webprof::bind
