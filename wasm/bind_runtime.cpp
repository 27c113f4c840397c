// Bindings for RuntimeProfiler (seed 002): one RuntimeProfile per profiled
// runtime, working on the core Session that the polyfill sampler feeds
// (a TraceSession's handle, see bind_core.cpp / bind_profiler.cpp).
//
// Stack text arrives as UTF-8 in the scratch buffer (never as an embind
// string, see bind_core.cpp); results leave as UTF-8 JSON bytes that JS
// copies out and parses once, so the tree's objects are built in one go.
// Session handles come from live TraceSessions: JS never passes the handle
// of a disposed one. Statuses cross as numbers; JS raises Errors via check().
#include <emscripten/bind.h>

#include <string>
#include <string_view>

#include "bind_util.h"
#include "runtime/runtime_profile.h"
#include "source/source_index.h"
#include "trace/session.h"

using namespace emscripten;
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
  std::string unclassified() const {
    std::string out;
    JoinUnclassified(profile_.sampler(), &out);
    return out;
  }
  void clearAnnotations() { profile_.ClearAnnotations(); }
  // A view of the JSON bytes: JS must copy it before the next core call.
  // `sources`: a SourceIndex handle (bind_fidelity.cpp) or 0.
  val resultsJson(uintptr_t session, uintptr_t sources) {
    const std::string& json =
        profile_.ResultsJson(SessionOf(session)->trace(),
                             reinterpret_cast<const SourceIndex*>(sources));
    return val(typed_memory_view(
        json.size(), reinterpret_cast<const unsigned char*>(json.data())));
  }

 private:
  RuntimeProfile profile_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(runtime) {
  class_<JsRuntimeProfile>("RuntimeProfile")
      .constructor<>()
      .function("configure", &JsRuntimeProfile::configure)
      .function("annotate", &JsRuntimeProfile::annotate)
      .function("unclassified", &JsRuntimeProfile::unclassified)
      .function("clearAnnotations", &JsRuntimeProfile::clearAnnotations)
      .function("resultsJson", &JsRuntimeProfile::resultsJson);
}
