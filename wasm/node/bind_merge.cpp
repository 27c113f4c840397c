// Bindings for the merger (src/merge/profile_merger.h): register and
// convert only.
//
// Ownership: JS creates a ProfileMerge (embind) and must delete() it; it
// owns the merger and one input buffer. An input (or a source map) arrives
// in chunks: JS asks for room (inputSpace), writes bytes there — a file is
// read straight into it, never into a JS string — and commits them; then
// addInput/addSourceMap hands the buffer to the core and empties it (its
// capacity stays: peak memory is the largest input, not their sum). Output
// stays in the merge's ByteSink chunks until JS copied them (bind_embind.h).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <string>

#include "bind_embind.h"
#include "bind_util.h"
#include "export/format_registry.h"
#include "merge/profile_merger.h"

using namespace emscripten;
using namespace webprof;

namespace {

class ProfileMerge {
 public:
  // Inputs past this many bytes are refused (Wasm memory is 32-bit).
  static constexpr size_t kMaxInputBytes = size_t{1} << 30;

  // Room for `n` more bytes after those committed; 0 past the limit. The
  // address is valid until the next call (the buffer may move).
  uintptr_t inputSpace(uint32_t n) {
    if (committed_ + n > kMaxInputBytes) return 0;
    if (text_.size() < committed_ + n) text_.resize(committed_ + n);
    return reinterpret_cast<uintptr_t>(text_.data() + committed_);
  }
  void commitInput(uint32_t n) {
    committed_ = std::min(text_.size(), committed_ + n);
  }
  double inputSize() const { return double(committed_); }
  // Forgets the bytes committed so far (an input cut short).
  void discardInput() { committed_ = 0; }

  // The committed bytes as input `name` (UTF-8 at blob/lens, one string):
  // {status, error, format, profiles, samples, timeNs}.
  val addInput(uintptr_t blob, uintptr_t lens) {
    return bind::StatusResult([&](val& out, std::string* error) {
      bind::Strings s(blob, lens);
      MergeInputInfo info;
      Status st = merger_.AddInput(std::string_view(text_.data(), committed_),
                                   s.Next(), &info, error);
      committed_ = 0;
      out.set("format", std::string(ProfileFormatName(info.format)));
      out.set("profiles", info.profiles);
      out.set("samples", double(info.samples));
      out.set("timeNs", double(info.time_ns));
      return st;
    });
  }

  // The committed bytes as the source map of `script` found at `mapUrl`
  // (blob/lens: the two strings): {status, error}.
  val addSourceMap(uintptr_t blob, uintptr_t lens) {
    return bind::StatusResult([&](val&, std::string* error) {
      bind::Strings s(blob, lens);
      std::string_view script = s.Next(), map_url = s.Next();
      Status st = merger_.AddSourceMap(
          script, std::string_view(text_.data(), committed_), map_url, error);
      committed_ = 0;
      return st;
    });
  }

  // {inputs, profiles, samples, timeNs, stacks, frames, memoryBytes,
  // wasmMemoryBytes} (the last: the instance's whole linear memory).
  val totals() const {
    const MergeTotals& t = merger_.totals();
    val out = val::object();
    out.set("inputs", t.inputs);
    out.set("profiles", t.profiles);
    out.set("samples", double(t.samples));
    out.set("timeNs", double(t.time_ns));
    out.set("stacks", merger_.weighted_stacks());
    out.set("frames", merger_.merged().frames().size());
    out.set("memoryBytes", double(merger_.memory_bytes() + text_.capacity()));
    out.set("wasmMemoryBytes", double(__builtin_wasm_memory_size(0)) * 65536);
    return out;
  }

  // `format` is an ExportFormat id (exportFormats()); a Status.
  int32_t write(int32_t format) {
    boundary::Entry entry(bind::instance_health);
    if (!entry) return bind::kTrapped;
    return int32_t(merger_.Write(format, ExportOptions{}, out_));
  }
  // What write() wrote, read by JS through bind_embind.h's accessors.
  ByteSink& output() { return out_; }

 private:
  ProfileMerger merger_;
  std::string text_;  // the input being received; [0, committed_) filled
  size_t committed_ = 0;
  ByteSink out_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(merge) {
  class_<ProfileMerge> merge("ProfileMerge");
  merge.constructor<>()
      .function("inputSpace", &ProfileMerge::inputSpace)
      .function("commitInput", &ProfileMerge::commitInput)
      .function("inputSize", &ProfileMerge::inputSize)
      .function("discardInput", &ProfileMerge::discardInput)
      .function("addInput", &ProfileMerge::addInput)
      .function("addSourceMap", &ProfileMerge::addSourceMap)
      .function("totals", &ProfileMerge::totals)
      .function("write", &ProfileMerge::write);
  bind::WithOutput(merge);
}
