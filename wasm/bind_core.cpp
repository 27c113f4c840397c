// Bindings for the trace model: sessions (status text and the scratch
// buffer text crosses in are bind_boundary.cpp's), and the list of export
// formats a session can be written in.
//
// Plain `extern "C"` exports taking and returning numbers (no embind: its
// runtime was most of the page's JS glue); js/core/bindings.mjs gives JS the
// object API (`new m.Session(...)`, `.delete()`) over them. A session is the
// address of a JsSession JS owns. Ids cross the boundary as int32: >= 0 is an
// id, -1 is "none", other negatives are -Status so JS can raise an Error
// with the core's own message. Text and row tables come back through
// wp_result() (bind_util.h SetResult).
#include <emscripten/emscripten.h>

#include <string_view>
#include <vector>

#include "base/status.h"
#include "bind_util.h"
#include "trace/session.h"

using namespace webprof;
using namespace webprof::bind;

namespace {

int32_t IdOrNone(uint32_t v) {
  return v == boundary::kNoneU32 ? boundary::kNoId : static_cast<int32_t>(v);
}

// Owns a Session for JS. Readback leaves rows as the call's result (the
// samples converted into a member vector first): JS must copy them before
// the next core call.
class JsSession {
 public:
  JsSession(double interval_ms, double max_buffer, double time_origin_ms)
      : session_(SessionOptions{interval_ms, static_cast<uint32_t>(max_buffer),
                                time_origin_ms}) {}
  // The polyfill sampler may still hold samples of this session whose
  // stacks arrive later (bind_profiler.cpp): they must never reach a
  // deleted session (an instance without a sampler has none).
  ~JsSession() { ForgetDeferredSamples(&session_); }
  JsSession(const JsSession&) = delete;
  JsSession& operator=(const JsSession&) = delete;

  uintptr_t handle() { return reinterpret_cast<uintptr_t>(&session_); }
  int32_t state() const { return static_cast<int32_t>(session_.state()); }
  double sampleInterval() const { return session_.sample_interval_ms(); }
  double maxBufferSize() const { return session_.max_buffer_size(); }
  void pause() { session_.Pause(); }
  void resume() { session_.Resume(); }
  void stop() { session_.Stop(); }

  // Text arrives as UTF-8 bytes in the scratch buffer (TextEncoder in JS).
  int32_t internResource(uintptr_t ptr, uint32_t len) {
    ResourceId id = session_.trace().InternResource(View(ptr, len));
    return id.is_none() ? Err(Status::kTableFull) : IdOrNone(id.value);
  }
  int32_t internFrame(uintptr_t name_ptr, uint32_t name_len, int32_t resource,
                      double line, double column) {
    ProfilerTrace& t = session_.trace();
    StringId n = t.names().Intern(View(name_ptr, name_len));
    if (n.is_none()) return Err(Status::kTableFull);
    if (!(line >= 0 && line <= 0xFFFFFFFFu && column >= 0 &&
          column <= 0xFFFFFFFFu))
      return Err(Status::kInvalidArgument);
    FrameId out;
    Status s = t.InternFrame(
        n, resource < 0 ? ResourceId::None() : ResourceId(resource),
        static_cast<uint32_t>(line), static_cast<uint32_t>(column), &out);
    return s == Status::kOk ? IdOrNone(out.value) : Err(s);
  }
  int32_t internStack(int32_t frame, int32_t parent) {
    if (frame < 0) return Err(Status::kUnknownFrame);
    StackId out;
    Status s = session_.trace().InternStack(
        FrameId(frame), parent < 0 ? StackId::None() : StackId(parent), &out);
    return s == Status::kOk ? IdOrNone(out.value) : Err(s);
  }

  uint32_t sampleCount() const { return session_.trace().samples().size(); }
  uint32_t resourceCount() const { return session_.trace().resources().size(); }

  // Rows as boundary.h declares them. Samples are converted (a stack id
  // becomes a double, kNoId for none) into samples_; the stack and frame
  // tables already have the SampleRow/FrameRow layout, so their result is
  // the core's own rows.
  void samples() {
    const SampleBuffer& s = session_.trace().samples();
    samples_.resize(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
      samples_[i].timestamp = s[i].timestamp;
      samples_[i].stack =
          s[i].stack.is_none() ? boundary::kNoId : double(s[i].stack.value);
    }
    SetResultRows(samples_);
  }
  void stacks() { SetResultRows(session_.trace().stacks().rows()); }
  void frames() { SetResultRows(session_.trace().frames().rows()); }
  void name(uint32_t i) const { Text(session_.trace().names(), i); }
  uint32_t nameCount() const { return session_.trace().names().size(); }
  void resource(uint32_t i) const { Text(session_.trace().resources(), i); }

 private:
  static void Text(const StringTable& t, uint32_t i) {
    std::string_view s = i < t.size() ? t.Get(StringId(i)) : std::string_view();
    SetResult(s.data(), s.size());
  }

  Session session_;
  std::vector<boundary::SampleRow> samples_;
};

JsSession* At(uintptr_t p) { return reinterpret_cast<JsSession*>(p); }

}  // namespace

extern "C" {

// The built-in export formats as the result text (boundary.h
// ExportFormatsJson): in every build with sessions, so a page lists them
// before the tools module with the writers is loaded.
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_export_formats() {
  SetResultText(boundary::ExportFormatsJson());
}

// Hot path: one sample for the session behind `handle` (JsSession::handle).
EMSCRIPTEN_KEEPALIVE int32_t wp_session_sample(uintptr_t handle, double ts,
                                               int32_t stack) {
  boundary::Entry entry(instance_health);
  if (!entry) return kTrapped;
  auto* s = reinterpret_cast<Session*>(handle);
  return static_cast<int32_t>(
      s->TakeSample(ts, stack < 0 ? StackId::None() : StackId(stack)));
}

// A session JS owns: wp_session_delete() frees it. The rest take its
// address and forward to JsSession.
EMSCRIPTEN_KEEPALIVE WP_COLD uintptr_t wp_session_new(double interval_ms,
                                                      double max_buffer,
                                                      double time_origin_ms) {
  return reinterpret_cast<uintptr_t>(
      new JsSession(interval_ms, max_buffer, time_origin_ms));
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_session_delete(uintptr_t p) {
  delete At(p);
}
EMSCRIPTEN_KEEPALIVE uintptr_t wp_session_handle(uintptr_t p) {
  return At(p)->handle();
}
EMSCRIPTEN_KEEPALIVE int32_t wp_session_state(uintptr_t p) {
  return At(p)->state();
}
EMSCRIPTEN_KEEPALIVE double wp_session_sample_interval(uintptr_t p) {
  return At(p)->sampleInterval();
}
EMSCRIPTEN_KEEPALIVE double wp_session_max_buffer_size(uintptr_t p) {
  return At(p)->maxBufferSize();
}
EMSCRIPTEN_KEEPALIVE void wp_session_pause(uintptr_t p) { At(p)->pause(); }
EMSCRIPTEN_KEEPALIVE void wp_session_resume(uintptr_t p) { At(p)->resume(); }
EMSCRIPTEN_KEEPALIVE void wp_session_stop(uintptr_t p) { At(p)->stop(); }
EMSCRIPTEN_KEEPALIVE int32_t wp_session_intern_resource(uintptr_t p,
                                                        uintptr_t ptr,
                                                        uint32_t len) {
  return At(p)->internResource(ptr, len);
}
EMSCRIPTEN_KEEPALIVE int32_t
wp_session_intern_frame(uintptr_t p, uintptr_t name_ptr, uint32_t name_len,
                        int32_t resource, double line, double column) {
  return At(p)->internFrame(name_ptr, name_len, resource, line, column);
}
EMSCRIPTEN_KEEPALIVE int32_t wp_session_intern_stack(uintptr_t p, int32_t frame,
                                                     int32_t parent) {
  return At(p)->internStack(frame, parent);
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_session_sample_count(uintptr_t p) {
  return At(p)->sampleCount();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_session_resource_count(uintptr_t p) {
  return At(p)->resourceCount();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_session_name_count(uintptr_t p) {
  return At(p)->nameCount();
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_session_samples(uintptr_t p) {
  At(p)->samples();
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_session_stacks(uintptr_t p) {
  At(p)->stacks();
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_session_frames(uintptr_t p) {
  At(p)->frames();
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_session_name(uintptr_t p, uint32_t i) {
  At(p)->name(i);
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_session_resource(uintptr_t p, uint32_t i) {
  At(p)->resource(i);
}

}  // extern "C"
