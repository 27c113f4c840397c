// Binding of the W3C-trace loader (src/trace/trace_loader.h, which does every
// load rule): JS loads a ProfilerTrace object into a TraceSession's Session
// in a few bulk calls over buffers it malloc()ed and filled (strings as one
// UTF-8 blob + a Uint32Array of byte lengths, numbers as Uint32Array;
// samples straight into the trace's own storage), never one call per row.
//
// Ownership: JS creates a TraceLoad (wp_trace_load_new) for one load and
// delete()s it; the Session behind `handle` (JsSession::handle) is not owned
// and must outlive it. Every call returns a Status; on error nothing from that
// call is kept.
#include <emscripten/emscripten.h>

#include <cstdint>

#include "bind_util.h"
#include "boundary/boundary.h"
#include "trace/session.h"
#include "trace/trace_loader.h"

using namespace webprof;
using namespace webprof::bind;

namespace {

class JsTraceLoad {
 public:
  // `as_sampled`: a trace another profiler recorded on this page (the
  // page's stack sampler decides webprof's own frames); else as given (always
  // in an instance without a sampler, the tools module: its loads are
  // exports'). `time_offset_ms` moves its samples onto the session's time base
  // (a trace joined to what the session holds: TraceLoader, "Joining").
  JsTraceLoad(uintptr_t handle, bool as_sampled, double time_offset_ms)
      : loader_(&reinterpret_cast<Session*>(handle)->trace(),
                LoadOptions{as_sampled ? PageSamplerIfAny() : nullptr,
                            time_offset_ms}) {}

  // `count` URLs; `hidden` (0 = none) a Uint8Array of flags, 1 = a
  // resource whose frames the page may not see.
  int32_t loadResources(uintptr_t blob, uintptr_t lens, uintptr_t hidden,
                        uint32_t count) {
    Strings s(blob, lens);
    auto* h = reinterpret_cast<const uint8_t*>(hidden);
    for (uint32_t i = 0; i < count; ++i) {
      Status st = loader_.AddResource(s.Next(), h && h[i]);
      if (st != Status::kOk) return int32_t(st);
    }
    return 0;
  }

  // Names in the blob; boundary::LoadFrameRow rows in W3C numbering.
  int32_t loadFrames(uintptr_t blob, uintptr_t lens, uintptr_t rows,
                     uint32_t count) {
    Strings s(blob, lens);
    auto* r = reinterpret_cast<const boundary::LoadFrameRow*>(rows);
    for (uint32_t i = 0; i < count; ++i) {
      Status st =
          loader_.AddFrame(s.Next(), r[i].resource, r[i].line, r[i].column);
      if (st != Status::kOk) return int32_t(st);
    }
    return 0;
  }

  // boundary::StackRow rows [frame, parent|kNoneU32] in W3C numbering.
  int32_t loadStacks(uintptr_t rows, uint32_t count) {
    return int32_t(
        loader_.AddStacks(reinterpret_cast<const uint32_t*>(rows), count));
  }

  // JS fills the reserved rows in Wasm memory as f64 [timestamp ms, W3C
  // stackId or -1] (TraceLoader::ReserveSamples), then commits.
  uintptr_t reserveSamples(uint32_t n) {
    SampleBuffer::Span span = loader_.ReserveSamples(n);
    reserved_ = uint32_t(span.size);
    return reinterpret_cast<uintptr_t>(span.data);
  }
  uint32_t reservedSamples() const { return reserved_; }
  int32_t commitSamples() {
    reserved_ = 0;
    return int32_t(loader_.CommitSamples());
  }
  // After the last commit (orders samples a profiler wrote out of order).
  void finish() { loader_.Finish(); }

 private:
  TraceLoader loader_;
  uint32_t reserved_ = 0;  // sample rows JS is filling
};

JsTraceLoad* At(uintptr_t p) { return reinterpret_cast<JsTraceLoad*>(p); }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE uintptr_t wp_trace_load_new(uintptr_t handle,
                                                 bool as_sampled,
                                                 double time_offset_ms) {
  return reinterpret_cast<uintptr_t>(
      new JsTraceLoad(handle, as_sampled, time_offset_ms));
}
EMSCRIPTEN_KEEPALIVE void wp_trace_load_delete(uintptr_t p) { delete At(p); }
EMSCRIPTEN_KEEPALIVE int32_t wp_trace_load_resources(uintptr_t p,
                                                     uintptr_t blob,
                                                     uintptr_t lens,
                                                     uintptr_t hidden,
                                                     uint32_t count) {
  return At(p)->loadResources(blob, lens, hidden, count);
}
EMSCRIPTEN_KEEPALIVE int32_t wp_trace_load_frames(uintptr_t p, uintptr_t blob,
                                                  uintptr_t lens,
                                                  uintptr_t rows,
                                                  uint32_t count) {
  return At(p)->loadFrames(blob, lens, rows, count);
}
EMSCRIPTEN_KEEPALIVE int32_t wp_trace_load_stacks(uintptr_t p, uintptr_t rows,
                                                  uint32_t count) {
  return At(p)->loadStacks(rows, count);
}
EMSCRIPTEN_KEEPALIVE uintptr_t wp_trace_load_reserve(uintptr_t p, uint32_t n) {
  return At(p)->reserveSamples(n);
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_trace_load_reserved(uintptr_t p) {
  return At(p)->reservedSamples();
}
EMSCRIPTEN_KEEPALIVE int32_t wp_trace_load_commit(uintptr_t p) {
  return At(p)->commitSamples();
}
EMSCRIPTEN_KEEPALIVE void wp_trace_load_finish(uintptr_t p) { At(p)->finish(); }

}  // extern "C"
