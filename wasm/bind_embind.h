// Helpers for the bindings registered through embind (bind_util.h holds
// what every binding file shares, plain extern "C" ones included).
//
// Output: the one way a binding class hands its ByteSink's output to JS, for
// every class that writes into one (ExportBuilder, ProfileMerge): size(), then
// each chunk's address and length — JS copies the bytes out, since Wasm
// memory growth detaches views (js/core/heap.mjs copyChunks) — then
// clearOutput(). The chunks are never joined in Wasm memory, so an export
// costs its size once, not twice.
//
// The class gives access through `ByteSink& output()`; the accessors are
// registered as methods on its embind class_ by WithOutput.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "base/status.h"
#include "bind_util.h"
#include "export/byte_sink.h"

namespace webprof::bind {

template <class T>
double OutputSize(T& t) {
  return double(t.output().size());
}
template <class T>
uint32_t OutputChunkCount(T& t) {
  return uint32_t(t.output().chunk_count());
}
template <class T>
uintptr_t OutputChunkPtr(T& t, uint32_t i) {
  return reinterpret_cast<uintptr_t>(t.output().chunk_data(i));
}
template <class T>
uint32_t OutputChunkLength(T& t, uint32_t i) {
  return uint32_t(t.output().chunk_length(i));
}
template <class T>
void ClearOutput(T& t) {
  t.output().Clear();
}

// `c` with size, chunkCount, chunkPtr, chunkLength and clearOutput.
template <class T>
const emscripten::class_<T>& WithOutput(const emscripten::class_<T>& c) {
  return c.function("size", &OutputSize<T>)
      .function("chunkCount", &OutputChunkCount<T>)
      .function("chunkPtr", &OutputChunkPtr<T>)
      .function("chunkLength", &OutputChunkLength<T>)
      .function("clearOutput", &ClearOutput<T>);
}

// A core call whose result JS reads as {status, error, ...}, run under the
// instance's health entry: a refused entry gives {status: kTrapped} and runs
// nothing. `call(out, &error)` runs the core, sets its own fields (what the
// core reported) on `out` and returns the Status.
template <class Call>
emscripten::val StatusResult(Call call) {
  emscripten::val out = emscripten::val::object();
  boundary::Entry entry(instance_health);
  if (!entry) {
    out.set("status", kTrapped);
    return out;
  }
  std::string error;
  Status st = call(out, &error);
  out.set("status", static_cast<int32_t>(st));
  out.set("error", error);
  return out;
}

}  // namespace webprof::bind
