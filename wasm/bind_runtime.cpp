// Bindings for RuntimeProfiler (seed 002): one RuntimeProfile per profiled
// runtime, working on the core Session that the polyfill sampler feeds
// (a TraceSession's handle, see bind_core.cpp / bind_profiler.cpp).
//
// Stack text arrives as UTF-8 in the scratch buffer; results leave as UTF-8
// JSON bytes that JS copies out and parses once, so the tree's objects are
// built in one go. Session handles come from live TraceSessions: JS never
// passes the handle of a disposed one. Statuses cross as numbers; JS raises
// Errors via check().
#include <emscripten/emscripten.h>

#include <string>
#include <string_view>
#include <utility>

#include "bind_util.h"
#include "runtime/runtime_profile.h"
#include "source/frame_definitions.h"
#include "trace/session.h"

using namespace webprof;
using namespace webprof::bind;

namespace {

Session* SessionOf(uintptr_t handle) {
  return reinterpret_cast<Session*>(handle);
}

class JsRuntimeProfile {
 public:
  // Same kinds as wp_profiler_config (boundary.h SamplerConfig).
  int32_t configure(int32_t kind, uintptr_t ptr, uint32_t len) {
    return static_cast<int32_t>(
        boundary::ConfigureSampler(profile_.sampler(), kind, View(ptr, len)));
  }
  // >= 0: the slot; < 0: -status - 1 (kUnclassifiedScript: see unclassified()).
  int32_t annotate(uintptr_t session, uintptr_t ptr, uint32_t len) {
    uint32_t slot = 0;
    Status s =
        profile_.Annotate(View(ptr, len), &SessionOf(session)->trace(), &slot);
    return s == Status::kOk ? static_cast<int32_t>(slot) : Err(s);
  }
  // '\n'-joined script URLs the last annotate() refused as unclassified.
  void unclassified() const {
    std::string out;
    JoinUnclassified(profile_.sampler(), &out);
    SetResultText(std::move(out));
  }
  void clearAnnotations() { profile_.ClearAnnotations(); }
  // The JSON bytes as the result: JS must copy them before the next core call.
  // `definitions`: a FrameDefinitions handle taken for that session
  // (bind_fidelity.cpp) or 0.
  void resultsJson(uintptr_t session, uintptr_t definitions) {
    const std::string& json = profile_.ResultsJson(
        SessionOf(session)->trace(),
        reinterpret_cast<const FrameDefinitions*>(definitions));
    SetResult(json.data(), json.size());
  }

 private:
  RuntimeProfile profile_;
};

JsRuntimeProfile* At(uintptr_t p) {
  return reinterpret_cast<JsRuntimeProfile*>(p);
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE uintptr_t wp_runtime_new() {
  return reinterpret_cast<uintptr_t>(new JsRuntimeProfile());
}
EMSCRIPTEN_KEEPALIVE void wp_runtime_delete(uintptr_t p) { delete At(p); }
EMSCRIPTEN_KEEPALIVE int32_t wp_runtime_configure(uintptr_t p, int32_t kind,
                                                  uintptr_t ptr, uint32_t len) {
  return At(p)->configure(kind, ptr, len);
}
EMSCRIPTEN_KEEPALIVE int32_t wp_runtime_annotate(uintptr_t p, uintptr_t session,
                                                 uintptr_t ptr, uint32_t len) {
  return At(p)->annotate(session, ptr, len);
}
EMSCRIPTEN_KEEPALIVE void wp_runtime_unclassified(uintptr_t p) {
  At(p)->unclassified();
}
EMSCRIPTEN_KEEPALIVE void wp_runtime_clear_annotations(uintptr_t p) {
  At(p)->clearAnnotations();
}
EMSCRIPTEN_KEEPALIVE void wp_runtime_results_json(uintptr_t p,
                                                  uintptr_t session,
                                                  uintptr_t definitions) {
  At(p)->resultsJson(session, definitions);
}

}  // extern "C"
