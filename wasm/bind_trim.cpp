// Binding of TrimTrace (src/export/trace_trim.h) for field collection
// (js/field/collect.mjs): the trace of one Session trimmed into another,
// empty one. Both Sessions belong to JS (JsSession::handle, the tools
// module's sessions a trace is copied into); nothing here keeps a pointer
// after the call.
#include <emscripten/emscripten.h>

#include <cstdint>

#include "bind_util.h"
#include "export/trace_trim.h"
#include "trace/session.h"

using namespace webprof;

namespace {

// Returns the Status; the result is f64 [idleDropped, thinnedDropped].
// `max_samples` 0 = no cap.
int32_t TrimTraceJs(uintptr_t from, uintptr_t into, double max_samples,
                    bool drop_idle) {
  TrimOptions o;
  o.drop_idle = drop_idle;
  o.max_samples = max_samples > 0 && max_samples < 4294967295.0
                      ? static_cast<uint32_t>(max_samples)
                      : 0;
  TrimResult r;
  Status s = TrimTrace(reinterpret_cast<Session*>(from)->trace(), o,
                       &reinterpret_cast<Session*>(into)->trace(), &r);
  static double dropped[2];
  dropped[0] = static_cast<double>(r.idle_dropped);
  dropped[1] = static_cast<double>(r.thinned_dropped);
  bind::SetResult(dropped, sizeof dropped);
  return static_cast<int32_t>(s);
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int32_t wp_trim_trace(uintptr_t from, uintptr_t into,
                                           double max_samples, bool drop_idle) {
  return TrimTraceJs(from, into, max_samples, drop_idle);
}

}  // extern "C"
