// From one captured `Error.stack` text to a sample in every running session.
//
// The polyfill sampler captures a stack at a probe site when a sample is due
// and hands the text over once; StackSampler parses it once (stack_parser.h),
// decides which frames a page may see, and interns the visible frames into
// each session's ProfilerTrace ("get a stack ID"), then takes the sample.
//
// Which frames are visible (W3C JS Self-Profiling, "take a sample"):
//  - webprof's own frames (the glue's script URL prefix, or a function-name
//    marker when webprof is bundled into the page's script) are removed;
//  - frames of classic scripts with muted errors (CORS) are removed — the JS
//    side decides which scripts are muted (js/muted.mjs) and tells us once;
//  - a frame without a resource — a builtin such as Array.prototype.map,
//    String.prototype.replace, a generator's next, or eval / new Function
//    code — is removed, as Chromium's native Profiler does (verified in
//    Chromium 156: it reports no frame without a resource anywhere in a
//    stack, the top included — time in sort() or JSON.parse is its caller's
//    self time, eval'd functions' time their caller's; SpiderMonkey's
//    Error.stack shows no builtin to begin with). With
//    KeepBuiltinFrames(true) they are kept; a builtin takes the script of
//    its nearest caller that has one (the spec's "attributed script"):
//    called from a muted script or from webprof it is removed; with no
//    caller at all it stays;
//  - async frames ("at async f", SpiderMonkey "async*f") are awaiting callers,
//    not frames on the stack: removed.
// A sample is always taken, even when nothing is visible (no stackId) or the
// text cannot be parsed (no stackId, and the parse status is reported).
#pragma once

#include <string_view>
#include <vector>

#include "sampling/stack_parser.h"
#include "trace/frame.h"
#include "trace/session.h"
#include "trace/string_table.h"
#include "trace/trace_loader.h"

namespace webprof {

// The one "is this webprof's own frame" rule (OwnFrameRule) is this
// class's: its captures apply it, and so does loading a trace another
// profiler recorded on the page (TraceLoader, as sampled).
class StackSampler final : public OwnFrameRule {
 public:
  // Frames whose script URL starts with `prefix` are webprof's own.
  void AddOwnUrlPrefix(std::string_view prefix);
  // `url` is webprof's own file (its Wasm core's, possibly a long `data:`
  // URL, which may be given cut to its head): a frame whose URL is it, or
  // one of the two cut from the other after at least kMinCutOwnUrl
  // characters (all of a shorter `url`), is webprof's own — Chromium
  // reports a Wasm module's URL cut to 1024 characters.
  void AddOwnUrl(std::string_view url);
  static constexpr size_t kMinCutOwnUrl = 64;
  // Frames whose engine display name contains `marker` are webprof's own.
  // V8's JS<->Wasm bridge frames (`js-to-wasm`, `wasm-to-js`, with or
  // without a `:signature`) are too: they have no resource, are no page
  // function, and on a page running webprof they are its core's calls.
  void SetOwnNameMarker(std::string_view marker);
  bool IsOwnScript(std::string_view url) const override;
  bool IsOwnName(std::string_view name) const override;
  // Records whether a classic script's URL (exactly as Error.stack shows
  // it) has muted errors (CORS). A script's first classification stands:
  // its errors cannot become unmuted later.
  void ClassifyScript(std::string_view url, bool muted);
  void MuteScript(std::string_view url) { ClassifyScript(url, true); }
  bool IsMuted(std::string_view url) const;
  // With `on`, Capture() refuses a stack holding a frame whose script was
  // never classified (kUnclassifiedScript) and lists those URLs in
  // unclassified_scripts(): the page side classifies them and retries, so
  // a frame of a script nobody looked at can never slip into a trace.
  void RequireClassifiedScripts(bool on) { require_classified_ = on; }
  // Keeps frames without a resource (builtins, eval code) instead of
  // removing them.
  void KeepBuiltinFrames(bool on) { keep_builtins_ = on; }
  // Views into the last Capture()'s text, each URL once.
  const std::vector<std::string_view>& unclassified_scripts() const {
    return unclassified_;
  }

  // Parses `text` and keeps its visible frames (outermost first) until the
  // next Capture(). Returns the parse status; on an error no frame is kept.
  // The kept frames are views into `text`: it must outlive their use.
  Status Capture(std::string_view text,
                 StackFormat format = StackFormat::kAuto);
  const std::vector<RawFrame>& visible_frames() const { return visible_; }

  // The StackId of the last capture's visible frames in `trace` (None when
  // no frame is visible or a table cap dropped them all).
  StackId InternInto(ProfilerTrace* trace);

  // Capture(text) then, for each of `sessions[0..n)`, intern and take a sample
  // at `timestamp_ms`; per-session outcomes go to `results[i]` (kOk,
  // kBufferFull once, kStopped, kPaused, ...). Returns the parse status: a
  // stack that cannot be parsed still gives each session a sample without
  // stackId, so nothing that was due is lost. kUnclassifiedScript is the
  // exception: no sample is taken, the caller classifies and calls again.
  Status Sample(std::string_view text, StackFormat format, double timestamp_ms,
                Session* const* sessions, size_t n, Status* results);

 private:
  std::vector<std::string> own_prefixes_;
  std::vector<std::string> own_urls_;
  std::string own_marker_;
  StringTable scripts_;             // classified script URLs
  std::vector<bool> script_muted_;  // by StringId of scripts_
  bool require_classified_ = false;
  bool keep_builtins_ = false;
  std::vector<std::string_view> unclassified_;
  std::vector<ParsedFrame> parsed_;
  std::vector<RawFrame> visible_;
  std::vector<FrameId> ids_;  // reused per InternInto
};

}  // namespace webprof
