// Bindings for spec frame positions: a per-page index of scanned sources and
// the rewrite of a stopped session's frames to function definitions. (The
// transform's probe sites and HTML <script> rows: bind_transform.cpp.)
//
// Sources enter once per URL (JS fetches and caches them) as the records the
// tools module's scanner made of their text (bind_scan.cpp,
// source/scan_records.h): this module links the index and its queries, not
// the scanner. The index keeps only the scan (definitions), never the text.
#include <emscripten/emscripten.h>

#include <string>
#include <string_view>
#include <vector>

#include "bind_util.h"
#include "boundary/boundary.h"
#include "source/frame_resolver.h"
#include "source/source_index.h"
#include "trace/session.h"

using namespace webprof;
using namespace webprof::bind;

namespace {

class JsSourceIndex {
 public:
  // Takes `count` record words at `words` as the scan of the `url_len`-byte
  // URL at `url`. Returns a Status.
  int32_t add(uintptr_t url, uint32_t url_len, uintptr_t words,
              uint32_t count) {
    return static_cast<int32_t>(index_.AddRecords(
        View(url, url_len), reinterpret_cast<const uint32_t*>(words), count));
  }
  void remove(uintptr_t ptr, uint32_t len) {
    index_.Remove(std::string(View(ptr, len)));
  }
  // The core SourceIndex's address, for RuntimeProfile.resultsJson.
  uintptr_t handle() { return reinterpret_cast<uintptr_t>(&index_); }

  // Rewrites the frames of the session behind `session_handle`
  // (JsSession::handle) using the scans of its resources' URLs.
  int32_t resolve(uintptr_t session_handle) {
    ProfilerTrace& trace = reinterpret_cast<Session*>(session_handle)->trace();
    return static_cast<int32_t>(
        ResolveFrames(index_.ScansFor(trace), &trace, &stats_));
  }
  uint32_t framesIn() const { return stats_.frames_in; }
  uint32_t framesOut() const { return stats_.frames_out; }
  uint32_t framesResolved() const { return stats_.frames_resolved; }

 private:
  SourceIndex index_;
  ResolveStats stats_;
};

JsSourceIndex* At(uintptr_t p) { return reinterpret_cast<JsSourceIndex*>(p); }

}  // namespace

extern "C" {

// A source index JS owns (wp_source_index_delete frees it).
EMSCRIPTEN_KEEPALIVE uintptr_t wp_source_index_new() {
  return reinterpret_cast<uintptr_t>(new JsSourceIndex());
}
EMSCRIPTEN_KEEPALIVE void wp_source_index_delete(uintptr_t p) { delete At(p); }
// The URL as UTF-8 at `url` (the scratch buffer), the records in a buffer
// the caller malloc()ed.
EMSCRIPTEN_KEEPALIVE int32_t wp_source_index_add(uintptr_t p, uintptr_t url,
                                                 uint32_t url_len,
                                                 uintptr_t words,
                                                 uint32_t count) {
  return At(p)->add(url, url_len, words, count);
}
// The URL as UTF-8 at ptr (the scratch buffer).
EMSCRIPTEN_KEEPALIVE void wp_source_index_remove(uintptr_t p, uintptr_t ptr,
                                                 uint32_t len) {
  At(p)->remove(ptr, len);
}
EMSCRIPTEN_KEEPALIVE uintptr_t wp_source_index_handle(uintptr_t p) {
  return At(p)->handle();
}
EMSCRIPTEN_KEEPALIVE int32_t wp_source_index_resolve(uintptr_t p,
                                                     uintptr_t session) {
  return At(p)->resolve(session);
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_source_index_frames_in(uintptr_t p) {
  return At(p)->framesIn();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_source_index_frames_out(uintptr_t p) {
  return At(p)->framesOut();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_source_index_frames_resolved(uintptr_t p) {
  return At(p)->framesResolved();
}

}  // extern "C"
