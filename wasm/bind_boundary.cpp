// Registers the boundary's declarations (src/boundary/boundary.h) for JS: one
// `boundary()` object that js/core/boundary.mjs reads once. Only registration
// and conversion here: every value comes from the header. Also the
// instance's health (src/boundary/health.h) and its exports.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cstddef>

#include "base/status.h"
#include "bind_util.h"
#include "boundary/boundary.h"
#include "boundary/health.h"

using namespace emscripten;
using namespace webprof;
using namespace webprof::boundary;

namespace {

val Statuses() {
  val out = val::object();
  for (int32_t i = 0; i < static_cast<int32_t>(Status::kCount); ++i)
    out.set(StatusName(static_cast<Status>(i)), i);
  return out;
}

val SessionStates() {
  val out = val::array();
#define WEBPROF_STATE_ITEM(name, js) \
  out.set(static_cast<int32_t>(SessionState::name), val(js));
  WEBPROF_SESSION_STATE_NAMES(WEBPROF_STATE_ITEM)
#undef WEBPROF_STATE_ITEM
  return out;
}

// Each record as {field: index in scalars, ..., size: scalars per record};
// the records are packed arrays of one scalar type (static_asserts in
// boundary.h), so a field's index is its offset over the scalar's size.
val Records() {
  val out = val::object();
#define WEBPROF_FIELD_INDEX(type, cpp, js) \
  r.set(js, static_cast<int32_t>(offsetof(Record, cpp) / sizeof(type)));
#define WEBPROF_FIELD_COUNT(type, cpp, js) +1
#define WEBPROF_RECORD(name, js, fields)                                \
  {                                                                     \
    using Record = name;                                                \
    val r = val::object();                                              \
    fields(WEBPROF_FIELD_INDEX);                                        \
    r.set("size", static_cast<int32_t>(0 fields(WEBPROF_FIELD_COUNT))); \
    out.set(js, r);                                                     \
  }
  WEBPROF_BOUNDARY_RECORDS(WEBPROF_RECORD)
#undef WEBPROF_RECORD
#undef WEBPROF_FIELD_COUNT
#undef WEBPROF_FIELD_INDEX
  return out;
}

// {jsName: value} for one of boundary.h's (name, jsName) enum lists.
#define WEBPROF_JS_ENUM_ITEM(name, js) \
  o.set(js, static_cast<int32_t>(Enum::name));
#define WEBPROF_JS_ENUM(Type, list) \
  [] {                              \
    using Enum = Type;              \
    val o = val::object();          \
    list(WEBPROF_JS_ENUM_ITEM);     \
    return o;                       \
  }()

val Boundary() {
  val b = val::object();
  b.set("status", Statuses());
  b.set("sessionStates", SessionStates());
  b.set("samplerConfig",
        WEBPROF_JS_ENUM(SamplerConfig, WEBPROF_SAMPLER_CONFIG_LIST));
  b.set("consoleFilter",
        WEBPROF_JS_ENUM(ConsoleFilter, WEBPROF_CONSOLE_FILTER_LIST));
  b.set("windowParts", WEBPROF_JS_ENUM(WindowPart, WEBPROF_WINDOW_PART_LIST));
  b.set("htmlScriptFlags",
        WEBPROF_JS_ENUM(HtmlScriptFlag, WEBPROF_HTML_SCRIPT_FLAG_LIST));
  b.set("noId", kNoId);
  b.set("noneU32", static_cast<double>(kNoneU32));
  b.set("sampleMaskBits", kSampleMaskBits);
  b.set("records", Records());
  return b;
}

}  // namespace

namespace webprof::bind {
boundary::Health instance_health;
}  // namespace webprof::bind

namespace {
void Trap() { __builtin_trap(); }
}  // namespace

extern "C" {

// 1 while the instance may be used, 0 once a call trapped or it was
// poisoned (asked between calls: never an entry itself).
EMSCRIPTEN_KEEPALIVE int32_t wp_health() {
  return webprof::bind::instance_health.usable() ? 1 : 0;
}

// The glue saw a trap or abort first (e.g. inside an embind call).
EMSCRIPTEN_KEEPALIVE void wp_poison() {
  webprof::bind::instance_health.Poison();
}

// Test-only hook (tests/js/trap.test.mjs): the next export that does work —
// e.g. the per-sample wp_session_sample or wp_profiler_defer — executes a
// Wasm trap, as a bug in it would. Never called by webprof itself.
EMSCRIPTEN_KEEPALIVE void wp_debug_trap() {
  webprof::bind::instance_health.ArmTrap(&Trap);
}

}  // extern "C"

EMSCRIPTEN_BINDINGS(boundary) { function("boundary", &Boundary); }
