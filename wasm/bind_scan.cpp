// Bindings for the index of a page's source scans (source/source_index.h):
// a script's text (or an HTML document's inline scripts) scanned into the
// index by URL, and each frame's definition answered from it
// (source/frame_definitions.h). Linked into the tools module
// (webprof-tools.wasm, loaded on first use) and the Node-side core: the
// page's load-time core holds the traces and takes the answers in
// (bind_fidelity.cpp), so it links neither the tokenizer, the function
// finder nor the index. The index keeps only the scan (definitions), never
// the text.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <vector>

#include "bind_util.h"
#include "source/frame_definitions.h"
#include "source/source_index.h"

using namespace webprof;
using namespace webprof::bind;

namespace {

class JsSourceIndex {
 public:
  // Scans the `text_len` bytes after the `url_len`-byte URL at `ptr` (html:
  // a document whose inline scripts are scanned) as the script at that URL.
  // Returns a Status.
  int32_t add(uintptr_t ptr, uint32_t url_len, uint32_t text_len, bool html) {
    return static_cast<int32_t>(
        index_.Add(View(ptr, url_len), View(ptr + url_len, text_len), html));
  }
  void remove(uintptr_t ptr, uint32_t len) { index_.Remove(View(ptr, len)); }
  // The definitions of the frames whose positions are `count` record words
  // at `words` (FramePositions): a Status; on kOk the definitions' records
  // are the call's result, valid until the next define().
  int32_t define(uintptr_t words, uint32_t count) {
    FramePositions positions;
    Status s =
        positions.Decode(reinterpret_cast<const uint32_t*>(words), count);
    if (s != Status::kOk) return static_cast<int32_t>(s);
    definitions_.Define(index_.ScansFor(positions.urls), positions);
    definitions_.Encode(&records_);
    SetResultRows(records_);
    return static_cast<int32_t>(Status::kOk);
  }

 private:
  SourceIndex index_;
  FrameDefinitions definitions_;
  std::vector<uint32_t> records_;
};

JsSourceIndex* At(uintptr_t p) { return reinterpret_cast<JsSourceIndex*>(p); }

}  // namespace

extern "C" {

// A source index JS owns (wp_source_index_delete frees it).
EMSCRIPTEN_KEEPALIVE uintptr_t wp_source_index_new() {
  return reinterpret_cast<uintptr_t>(new JsSourceIndex());
}
EMSCRIPTEN_KEEPALIVE void wp_source_index_delete(uintptr_t p) { delete At(p); }
// The URL and the text as UTF-8 at `ptr` (the scratch buffer).
EMSCRIPTEN_KEEPALIVE int32_t wp_source_index_add(uintptr_t p, uintptr_t ptr,
                                                 uint32_t url_len,
                                                 uint32_t text_len, bool html) {
  return At(p)->add(ptr, url_len, text_len, html);
}
// The URL as UTF-8 at ptr (the scratch buffer).
EMSCRIPTEN_KEEPALIVE void wp_source_index_remove(uintptr_t p, uintptr_t ptr,
                                                 uint32_t len) {
  At(p)->remove(ptr, len);
}
// The positions in a buffer the caller malloc()ed.
EMSCRIPTEN_KEEPALIVE int32_t wp_source_index_define(uintptr_t p,
                                                    uintptr_t words,
                                                    uint32_t count) {
  return At(p)->define(words, count);
}

}  // extern "C"
