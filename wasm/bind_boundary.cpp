// The boundary's declarations (src/boundary/boundary.h) for JS, the scratch
// buffer text crosses in, and the instance's health (src/boundary/health.h)
// with its exports. Plain exports only, no embind: this file is linked into
// both Wasm builds, the page's core and the probes' own (wasm/CMakeLists.txt),
// so both hand JS the same declarations the same way.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "bind_util.h"
#include "boundary/boundary.h"
#include "boundary/health.h"

namespace webprof::bind {
boundary::Health instance_health;
}  // namespace webprof::bind

namespace {

const std::string& Declarations() {
  static const std::string* json =
      new std::string(webprof::boundary::DeclarationsJson());
  return *json;
}

std::vector<unsigned char>& Scratch() {
  static std::vector<unsigned char>* scratch =
      new std::vector<unsigned char>(4096);
  return *scratch;
}

void Trap() { __builtin_trap(); }

}  // namespace

extern "C" {

// boundary.h's declarations as UTF-8 JSON (DeclarationsJson), read once by
// js/core/boundary.mjs; its length is wp_boundary_len(). Lives as long as
// the module.
EMSCRIPTEN_KEEPALIVE const char* wp_boundary() {
  return Declarations().c_str();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_boundary_len() {
  return static_cast<uint32_t>(Declarations().size());
}

// A reusable buffer of at least `bytes` for passing text into the core.
// The pointer is valid until the next wp_scratch call.
EMSCRIPTEN_KEEPALIVE unsigned char* wp_scratch(uint32_t bytes) {
  auto& s = Scratch();
  if (s.size() < bytes) s.resize(bytes + bytes / 2);
  return s.data();
}

// The status's message and name as the result text (bind_util.h
// SetResult): every build's calls report statuses.
EMSCRIPTEN_KEEPALIVE void wp_status_message(int32_t s) {
  std::string_view t = webprof::StatusMessage(static_cast<webprof::Status>(s));
  webprof::bind::SetResult(t.data(), t.size());
}
EMSCRIPTEN_KEEPALIVE void wp_status_name(int32_t s) {
  std::string_view t = webprof::StatusName(static_cast<webprof::Status>(s));
  webprof::bind::SetResult(t.data(), t.size());
}

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
