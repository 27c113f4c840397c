// Bindings for the polyfill Profiler: one StackSampler per Wasm instance (a
// page realm), the sessions it feeds, and the per-sample hot path.
//
// Hot path: JS calls wp_profiler_defer(ts, mask) — numbers only — which
// takes the sample in every selected attached session at once (buffer limit
// and state decided there); the captured stack's text follows later, oldest
// first, through wp_profiler_resolve(ptr, len) (src/deferred_stacks.h).
// wp_profiler_sample(ptr, len, ts, mask) parses a text at once instead.
// Several samples of one capture (the ticker's ticks since the last sample):
// JS writes DueRows at wp_profiler_due_rows(n), then wp_profiler_defer_rows(n)
// or, with no stack, wp_profiler_idle_rows(n).
// Per-session outcomes land in a results array (int32 Status, in attach
// order) that JS reads from HEAP32.
// Sessions are core Sessions owned by JS TraceSession objects (bind_core.cpp);
// JS attaches a session's handle while it runs and detaches it before the
// TraceSession is deleted — a detached handle is never dereferenced again.
#include <emscripten/emscripten.h>

#include <string>
#include <vector>

#include "bind_util.h"
#include "sampling/deferred_stacks.h"
#include "sampling/session_set.h"
#include "sampling/stack_sampler.h"
#include "trace/session.h"

using namespace webprof;
using namespace webprof::bind;

namespace {

struct ProfilerCore {
  StackSampler sampler;
  DeferredStacks deferred;
  SessionSet sessions;         // results(): Status is int32, JS reads HEAP32
  std::vector<DueSample> due;  // the rows JS writes for *_rows calls
  std::string unclassified;    // '\n'-joined URLs of the last refused capture
};

ProfilerCore& Core() {
  static ProfilerCore* core =
      new ProfilerCore();  // lives as long as the instance
  return *core;
}

// More rows than any ticker gap JS hands over (its ring of tick times).
constexpr uint32_t kMaxDueRows = 1 << 16;

int32_t Finish(Status parsed) {
  ProfilerCore& c = Core();
  if (parsed == Status::kUnclassifiedScript)
    JoinUnclassified(c.sampler, &c.unclassified);
  else
    c.unclassified.clear();
  return static_cast<int32_t>(parsed);
}

}  // namespace

namespace webprof::bind {
const StackSampler* PageSamplerIfAny() { return &Core().sampler; }
void ForgetDeferredSamples(const Session* session) {
  Core().deferred.Forget(session);
}
}  // namespace webprof::bind

extern "C" {

// Configuration, once per script or page (kinds: boundary.h
// SamplerConfig). Text comes from the scratch buffer.
EMSCRIPTEN_KEEPALIVE WP_COLD int32_t wp_profiler_config(int32_t kind,
                                                        uintptr_t ptr,
                                                        uint32_t len) {
  boundary::Entry entry(instance_health);
  if (!entry) return kTrapped;
  return static_cast<int32_t>(
      boundary::ConfigureSampler(Core().sampler, kind, View(ptr, len)));
}

// Adds a session (TraceSession handle) to those fed by wp_profiler_sample.
// Returns the number attached.
EMSCRIPTEN_KEEPALIVE WP_COLD int32_t wp_profiler_attach(uintptr_t handle) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  return static_cast<int32_t>(
      Core().sessions.Attach(reinterpret_cast<Session*>(handle)));
}

// Removes a session, keeping the order of the others. Returns the number left.
EMSCRIPTEN_KEEPALIVE WP_COLD int32_t wp_profiler_detach(uintptr_t handle) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  return static_cast<int32_t>(
      Core().sessions.Detach(reinterpret_cast<Session*>(handle)));
}

// One due sample from one stack text (format detected) for the attached
// sessions selected by `mask` (SessionSet::Selected). Returns the parse status;
// per-session statuses are at wp_profiler_results() (unselected ones read kOk).
// kUnclassifiedScript: nothing sampled, the URLs are at
// wp_profiler_unclassified().
EMSCRIPTEN_KEEPALIVE int32_t wp_profiler_sample(uintptr_t ptr, uint32_t len,
                                                double ts, uint32_t mask) {
  boundary::Entry entry(instance_health);
  if (!entry) return kTrapped;
  ProfilerCore& c = Core();
  SessionSet& set = c.sessions;
  set.Select(mask);
  Status parsed =
      c.sampler.Sample(View(ptr, len), StackFormat::kAuto, ts, set.selected(),
                       set.selected_count(), set.selected_results());
  set.Spread(mask);
  return Finish(parsed);
}

// A due sample whose stack text comes later: the sample is taken now in the
// attached sessions selected by `mask` (statuses at wp_profiler_results()).
// Returns how many kept it; when > 0, one capture is pending and its text
// must be passed to wp_profiler_resolve after every earlier one.
EMSCRIPTEN_KEEPALIVE uint32_t wp_profiler_defer(double ts, uint32_t mask) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  ProfilerCore& c = Core();
  SessionSet& set = c.sessions;
  set.Select(mask);
  size_t kept = c.deferred.Take(ts, set.selected(), set.selected_count(),
                                set.selected_results());
  set.Spread(mask);
  return static_cast<uint32_t>(kept);
}

// Room for n DueRows (boundary.h), valid until the next call (memory may
// grow: JS re-reads its heap views after this call). 0 if n is too large.
EMSCRIPTEN_KEEPALIVE uintptr_t wp_profiler_due_rows(uint32_t n) {
  boundary::Entry entry(instance_health);
  if (!entry || n > kMaxDueRows) return 0;
  std::vector<DueSample>& due = Core().due;
  if (due.size() < n) due.resize(n);
  return reinterpret_cast<uintptr_t>(due.data());
}

// wp_profiler_defer for the n rows at wp_profiler_due_rows: one capture for
// all of them (DeferredStacks::TakeMany). Returns how many samples were kept.
EMSCRIPTEN_KEEPALIVE uint32_t wp_profiler_defer_rows(uint32_t n) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  ProfilerCore& c = Core();
  if (n > c.due.size()) return 0;
  return static_cast<uint32_t>(
      c.deferred.TakeMany(c.due.data(), n, c.sessions));
}

// wp_profiler_idle for the n rows at wp_profiler_due_rows.
EMSCRIPTEN_KEEPALIVE void wp_profiler_idle_rows(uint32_t n) {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  ProfilerCore& c = Core();
  if (n <= c.due.size()) c.sessions.TakeIdle(c.due.data(), n);
}

// The text of the oldest pending capture. Returns the parse status;
// kUnclassifiedScript: still pending, the URLs are at
// wp_profiler_unclassified() (classify, call again, or wp_profiler_skip).
EMSCRIPTEN_KEEPALIVE int32_t wp_profiler_resolve(uintptr_t ptr, uint32_t len) {
  boundary::Entry entry(instance_health);
  if (!entry) return kTrapped;
  ProfilerCore& c = Core();
  return Finish(c.deferred.Resolve(c.sampler, View(ptr, len)));
}

// Resolves the oldest pending capture without a stack.
EMSCRIPTEN_KEEPALIVE void wp_profiler_skip() {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  Core().deferred.Skip();
}

// Captures still waiting for their text.
EMSCRIPTEN_KEEPALIVE uint32_t wp_profiler_pending() {
  return static_cast<uint32_t>(Core().deferred.pending());
}

// The same for one session only (replaying samples buffered before `ready`).
EMSCRIPTEN_KEEPALIVE int32_t wp_profiler_sample_one(uintptr_t handle,
                                                    uintptr_t ptr, uint32_t len,
                                                    double ts) {
  boundary::Entry entry(instance_health);
  if (!entry) return kTrapped;
  ProfilerCore& c = Core();
  Session* s = reinterpret_cast<Session*>(handle);
  Status result = Status::kOk;
  Status parsed =
      c.sampler.Sample(View(ptr, len), StackFormat::kAuto, ts, &s, 1, &result);
  Finish(parsed);
  if (parsed == Status::kUnclassifiedScript)
    return static_cast<int32_t>(parsed);
  return static_cast<int32_t>(result);
}

// An idle sample (no stackId) for the attached sessions selected by `mask`.
EMSCRIPTEN_KEEPALIVE void wp_profiler_idle(double ts, uint32_t mask) {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  Core().sessions.TakeIdle(ts, mask);
}

// int32 statuses of the last sample/idle call, one per attached session.
EMSCRIPTEN_KEEPALIVE WP_COLD uintptr_t wp_profiler_results() {
  return reinterpret_cast<uintptr_t>(Core().sessions.results());
}

EMSCRIPTEN_KEEPALIVE WP_COLD uintptr_t wp_profiler_unclassified() {
  return reinterpret_cast<uintptr_t>(Core().unclassified.data());
}
EMSCRIPTEN_KEEPALIVE WP_COLD uint32_t wp_profiler_unclassified_len() {
  return static_cast<uint32_t>(Core().unclassified.size());
}

}  // extern "C"
