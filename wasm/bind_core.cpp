// Bindings for the trace model: status text, sessions (the scratch buffer
// text crosses in is bind_boundary.cpp's).
//
// Object-level calls go through embind (a few µs each is fine there); the
// per-sample call is a plain export taking only numbers, because embind
// costs 4-7 ns per call against ~2 ns (see TOOLCHAIN.md). Ids cross the
// boundary as int32: >= 0 is an id, -1 is "none", other negatives are
// -Status so JS can raise an Error with the core's own message.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cstdlib>
#include <vector>

#include "base/status.h"
#include "bind_util.h"
#include "trace/session.h"

using namespace emscripten;
using namespace webprof;
using namespace webprof::bind;

namespace {

int32_t IdOrNone(uint32_t v) {
  return v == boundary::kNoneU32 ? boundary::kNoId : static_cast<int32_t>(v);
}

// Owns a Session for JS. Readback copies into a member vector and returns a
// typed_memory_view of it: JS must slice() before the next core call.
class JsSession {
 public:
  JsSession(double interval_ms, double max_buffer, double time_origin_ms)
      : session_(SessionOptions{interval_ms, static_cast<uint32_t>(max_buffer),
                                time_origin_ms}) {}
  // The polyfill sampler may still hold samples of this session whose
  // stacks arrive later (bind_profiler.cpp): they must never reach a
  // deleted session.
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

  // Text arrives as UTF-8 bytes in the scratch buffer (TextEncoder in JS):
  // embind's own string conversion in Emscripten 3.1.6 merges a lone
  // surrogate with the next character, so it is never used for input text.
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
  // tables already have the SampleRow/FrameRow layout, so their views are
  // the core's own rows.
  val samples() {
    const SampleBuffer& s = session_.trace().samples();
    samples_.resize(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
      samples_[i].timestamp = s[i].timestamp;
      samples_[i].stack =
          s[i].stack.is_none() ? boundary::kNoId : double(s[i].stack.value);
    }
    return RowsView<double>(samples_);
  }
  val stacks() { return RowsView<uint32_t>(session_.trace().stacks().rows()); }
  val frames() { return RowsView<uint32_t>(session_.trace().frames().rows()); }
  std::string name(uint32_t i) const {
    const StringTable& t = session_.trace().names();
    return i < t.size() ? std::string(t.Get(StringId(i))) : std::string();
  }
  uint32_t nameCount() const { return session_.trace().names().size(); }
  std::string resource(uint32_t i) const {
    const StringTable& t = session_.trace().resources();
    return i < t.size() ? std::string(t.Get(StringId(i))) : std::string();
  }

 private:
  // A typed-array view of `rows` read as scalars of type T (records are
  // packed, boundary.h); valid until the next core call.
  template <typename T, typename Rows>
  static val RowsView(const Rows& rows) {
    using Row = typename Rows::value_type;
    static_assert(sizeof(Row) % sizeof(T) == 0, "a row is whole scalars");
    return val(typed_memory_view(rows.size() * (sizeof(Row) / sizeof(T)),
                                 reinterpret_cast<const T*>(rows.data())));
  }

  Session session_;
  std::vector<boundary::SampleRow> samples_;
};

std::string StatusMessageJs(int32_t s) {
  return StatusMessage(static_cast<Status>(s));
}
std::string StatusNameJs(int32_t s) {
  return StatusName(static_cast<Status>(s));
}

}  // namespace

extern "C" {

// Hot path: one sample for the session behind `handle` (JsSession::handle).
EMSCRIPTEN_KEEPALIVE int32_t wp_session_sample(uintptr_t handle, double ts,
                                               int32_t stack) {
  boundary::Entry entry(instance_health);
  if (!entry) return kTrapped;
  auto* s = reinterpret_cast<Session*>(handle);
  return static_cast<int32_t>(
      s->TakeSample(ts, stack < 0 ? StackId::None() : StackId(stack)));
}

}  // extern "C"

EMSCRIPTEN_BINDINGS(core) {
  function("statusMessage", &StatusMessageJs);
  function("statusName", &StatusNameJs);
  constant("statusCount", static_cast<int32_t>(Status::kCount));
  class_<JsSession>("Session")
      .constructor<double, double, double>()
      .function("handle", &JsSession::handle)
      .function("state", &JsSession::state)
      .function("sampleInterval", &JsSession::sampleInterval)
      .function("maxBufferSize", &JsSession::maxBufferSize)
      .function("pause", &JsSession::pause)
      .function("resume", &JsSession::resume)
      .function("stop", &JsSession::stop)
      .function("internResource", &JsSession::internResource)
      .function("internFrame", &JsSession::internFrame)
      .function("internStack", &JsSession::internStack)
      .function("sampleCount", &JsSession::sampleCount)
      .function("resourceCount", &JsSession::resourceCount)
      .function("nameCount", &JsSession::nameCount)
      .function("samples", &JsSession::samples)
      .function("stacks", &JsSession::stacks)
      .function("frames", &JsSession::frames)
      .function("name", &JsSession::name)
      .function("resource", &JsSession::resource);
}
