// The tools module's answers to what the page's sampler and probes lend the
// trace and export bindings (bind_util.h): it links neither, so it has no
// sampler and no recorder. Linked into that module only (wasm/CMakeLists.txt);
// every other build with those bindings links bind_profiler.cpp and
// bind_probes.cpp instead.
#include "bind_util.h"

namespace webprof::bind {
const Recorder* ProbesRecorderIfAny() { return nullptr; }
const StackSampler* PageSamplerIfAny() { return nullptr; }
void ForgetDeferredSamples(const Session*) {}
}  // namespace webprof::bind
