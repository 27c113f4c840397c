// Bindings for RuntimeProfiler (seed 002): one RuntimeProfile per profiled
// runtime. Stack text arrives as UTF-8 in the scratch buffer (never as an
// embind string, see bind_core.cpp); results leave as UTF-8 JSON bytes that
// JS copies out and parses once, so the tree's objects are built in one go.
// Statuses are returned as numbers; JS raises Errors via core.check().
#include <emscripten/bind.h>

#include <string_view>

#include "runtime_profile.h"

using namespace emscripten;
using namespace webprof;

namespace {

std::string_view Text(uintptr_t ptr, uint32_t len) {
  return std::string_view(reinterpret_cast<const char*>(ptr), len);
}

class JsRuntimeProfile {
 public:
  explicit JsRuntimeProfile(double max_samples)
      : profile_(static_cast<uint32_t>(max_samples)) {}

  void addOwnUrlPrefix(uintptr_t ptr, uint32_t len) {
    profile_.sampler().AddOwnUrlPrefix(Text(ptr, len));
  }
  void setOwnNameMarker(uintptr_t ptr, uint32_t len) {
    profile_.sampler().SetOwnNameMarker(Text(ptr, len));
  }
  // kOk, kBufferFull (once), kStopped, or a parse status (sample kept).
  int32_t sample(uintptr_t ptr, uint32_t len, double timestamp_ms) {
    return static_cast<int32_t>(profile_.Sample(Text(ptr, len), timestamp_ms));
  }
  // >= 0: the slot; < 0: -status - 1.
  int32_t annotate(uintptr_t ptr, uint32_t len) {
    uint32_t slot = 0;
    Status s = profile_.Annotate(Text(ptr, len), &slot);
    return s == Status::kOk ? static_cast<int32_t>(slot)
                            : -static_cast<int32_t>(s) - 1;
  }
  void reset() { profile_.Reset(); }
  // A view of the JSON bytes: JS must copy it before the next core call.
  val resultsJson() {
    const std::string& json = profile_.ResultsJson();
    return val(typed_memory_view(
        json.size(), reinterpret_cast<const unsigned char*>(json.data())));
  }
  double sampleCount() const {
    return static_cast<double>(profile_.sample_count());
  }
  double samplesDropped() const {
    return static_cast<double>(profile_.samples_dropped());
  }
  double maxSamples() const { return profile_.max_samples(); }

 private:
  RuntimeProfile profile_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(runtime) {
  class_<JsRuntimeProfile>("RuntimeProfile")
      .constructor<double>()
      .function("addOwnUrlPrefix", &JsRuntimeProfile::addOwnUrlPrefix)
      .function("setOwnNameMarker", &JsRuntimeProfile::setOwnNameMarker)
      .function("sample", &JsRuntimeProfile::sample)
      .function("annotate", &JsRuntimeProfile::annotate)
      .function("reset", &JsRuntimeProfile::reset)
      .function("resultsJson", &JsRuntimeProfile::resultsJson)
      .function("sampleCount", &JsRuntimeProfile::sampleCount)
      .function("samplesDropped", &JsRuntimeProfile::samplesDropped)
      .function("maxSamples", &JsRuntimeProfile::maxSamples);
}
