// The one way a plain export hands JS more than a number (bind_util.h
// SetResult): the address and length of the bytes the call left, read by
// js/core/bindings.mjs right after it.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>
#include <utility>

#include "bind_util.h"

namespace {

struct Result {
  const void* data = nullptr;
  size_t bytes = 0;
  std::string text;  // what SetResultText keeps
};

Result& Last() {
  static Result* r = new Result;
  return *r;
}

}  // namespace

namespace webprof::bind {

void SetResult(const void* data, size_t bytes) {
  Last().data = data;
  Last().bytes = bytes;
}

void SetResultText(std::string text) {
  Result& r = Last();
  r.text = std::move(text);
  r.data = r.text.data();
  r.bytes = r.text.size();
}

}  // namespace webprof::bind

extern "C" {

EMSCRIPTEN_KEEPALIVE uintptr_t wp_result() {
  return reinterpret_cast<uintptr_t>(Last().data);
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_result_len() {
  return static_cast<uint32_t>(Last().bytes);
}

}  // extern "C"
