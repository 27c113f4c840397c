// Bindings for spec frame positions in the page's core: a trace's frames
// handed out as positions, their definitions taken back in, and the rewrite
// of a stopped session's frames to those definitions (ResolveFrames); the
// same definitions give RuntimeProfiler's call tree its definition lines
// (bind_runtime.cpp). The scans and the lookup are the tools module's
// (bind_scan.cpp): JS carries the records between the two modules
// (source/frame_definitions.h).
#include <emscripten/emscripten.h>

#include <vector>

#include "bind_util.h"
#include "source/frame_definitions.h"
#include "source/frame_resolver.h"
#include "trace/session.h"

using namespace webprof;
using namespace webprof::bind;

namespace {

ProfilerTrace& TraceOf(uintptr_t session_handle) {
  return reinterpret_cast<Session*>(session_handle)->trace();
}

class JsFrameDefinitions {
 public:
  // The frame positions of the session behind `session_handle`
  // (JsSession::handle) as records: the call's result, valid until the next
  // positions().
  void positions(uintptr_t session_handle) {
    EncodeFramePositions(TraceOf(session_handle), &records_);
    SetResultRows(records_);
  }
  // Takes `count` record words at `words` as the definitions of that
  // session's frames. Returns a Status (nothing taken on error).
  int32_t take(uintptr_t session_handle, uintptr_t words, uint32_t count) {
    return static_cast<int32_t>(
        definitions_.Decode(reinterpret_cast<const uint32_t*>(words), count,
                            TraceOf(session_handle).frames().size()));
  }
  void clear() { definitions_.Clear(); }
  // The core FrameDefinitions' address, for RuntimeProfile.resultsJson.
  uintptr_t handle() { return reinterpret_cast<uintptr_t>(&definitions_); }

  // Rewrites the frames of the session behind `session_handle` to the
  // definitions taken for it.
  int32_t resolve(uintptr_t session_handle) {
    return static_cast<int32_t>(
        ResolveFrames(definitions_, &TraceOf(session_handle), &stats_));
  }
  uint32_t framesIn() const { return stats_.frames_in; }
  uint32_t framesOut() const { return stats_.frames_out; }
  uint32_t framesResolved() const { return stats_.frames_resolved; }

 private:
  FrameDefinitions definitions_;
  ResolveStats stats_;
  std::vector<uint32_t> records_;
};

JsFrameDefinitions* At(uintptr_t p) {
  return reinterpret_cast<JsFrameDefinitions*>(p);
}

}  // namespace

extern "C" {

// Frame definitions JS owns (wp_frame_definitions_delete frees them).
EMSCRIPTEN_KEEPALIVE uintptr_t wp_frame_definitions_new() {
  return reinterpret_cast<uintptr_t>(new JsFrameDefinitions());
}
EMSCRIPTEN_KEEPALIVE void wp_frame_definitions_delete(uintptr_t p) {
  delete At(p);
}
EMSCRIPTEN_KEEPALIVE void wp_frame_definitions_positions(uintptr_t p,
                                                         uintptr_t session) {
  At(p)->positions(session);
}
// The records in a buffer the caller malloc()ed.
EMSCRIPTEN_KEEPALIVE int32_t wp_frame_definitions_take(uintptr_t p,
                                                       uintptr_t session,
                                                       uintptr_t words,
                                                       uint32_t count) {
  return At(p)->take(session, words, count);
}
EMSCRIPTEN_KEEPALIVE void wp_frame_definitions_clear(uintptr_t p) {
  At(p)->clear();
}
EMSCRIPTEN_KEEPALIVE uintptr_t wp_frame_definitions_handle(uintptr_t p) {
  return At(p)->handle();
}
EMSCRIPTEN_KEEPALIVE int32_t wp_frame_definitions_resolve(uintptr_t p,
                                                          uintptr_t session) {
  return At(p)->resolve(session);
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_frame_definitions_frames_in(uintptr_t p) {
  return At(p)->framesIn();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_frame_definitions_frames_out(uintptr_t p) {
  return At(p)->framesOut();
}
EMSCRIPTEN_KEEPALIVE uint32_t
wp_frame_definitions_frames_resolved(uintptr_t p) {
  return At(p)->framesResolved();
}

}  // extern "C"
