// Binding of TrimTrace (src/export/trace_trim.h) for field collection
// (js/field/collect.mjs): the trace of one Session trimmed into another,
// empty one. Both Sessions belong to their JS TraceSession wrappers
// (JsSession::handle); nothing here keeps a pointer after the call.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>

#include "bind_util.h"
#include "export/trace_trim.h"
#include "trace/session.h"

using namespace emscripten;
using namespace webprof;

namespace {

// {status, idleDropped, thinnedDropped}; `max_samples` 0 = no cap.
val TrimTraceJs(uintptr_t from, uintptr_t into, double max_samples,
                bool drop_idle) {
  TrimOptions o;
  o.drop_idle = drop_idle;
  o.max_samples = max_samples > 0 && max_samples < 4294967295.0
                      ? static_cast<uint32_t>(max_samples)
                      : 0;
  TrimResult r;
  Status s = TrimTrace(reinterpret_cast<Session*>(from)->trace(), o,
                       &reinterpret_cast<Session*>(into)->trace(), &r);
  val out = val::object();
  out.set("status", static_cast<int32_t>(s));
  out.set("idleDropped", static_cast<double>(r.idle_dropped));
  out.set("thinnedDropped", static_cast<double>(r.thinned_dropped));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(trim) { function("trimTrace", &TrimTraceJs); }
