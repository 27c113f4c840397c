#include "sampling/stack_sampler.h"

#include <algorithm>

namespace webprof {

void StackSampler::AddOwnUrlPrefix(std::string_view prefix) {
  if (!prefix.empty()) own_prefixes_.emplace_back(prefix);
}

void StackSampler::AddOwnUrl(std::string_view url) {
  if (!url.empty()) own_urls_.emplace_back(url);
}

void StackSampler::SetOwnNameMarker(std::string_view marker) {
  own_marker_.assign(marker.data(), marker.size());
}

void StackSampler::ClassifyScript(std::string_view url, bool muted) {
  if (url.empty()) return;
  uint32_t before = scripts_.size();
  StringId id = scripts_.Intern(url);
  if (id.is_none()) return;  // cap reached: the script stays unclassified
  if (id.value >= before) script_muted_.push_back(muted);
}

bool StackSampler::IsMuted(std::string_view url) const {
  if (url.empty()) return false;
  StringId id = scripts_.Find(url);
  return !id.is_none() && script_muted_[id.value];
}

namespace {
// V8's trampolines between JS and Wasm, as its profiler names them.
bool IsWasmBridge(std::string_view name) {
  for (std::string_view b :
       {std::string_view("js-to-wasm"), std::string_view("wasm-to-js")}) {
    if (name.substr(0, b.size()) == b &&
        (name.size() == b.size() || name[b.size()] == ':'))
      return true;
  }
  return false;
}
}  // namespace

bool StackSampler::IsOwnName(std::string_view name) const {
  if (IsWasmBridge(name)) return true;
  return !own_marker_.empty() &&
         name.find(own_marker_) != std::string_view::npos;
}

bool StackSampler::IsOwnScript(std::string_view url) const {
  for (const std::string& p : own_prefixes_)
    if (url.substr(0, p.size()) == p) return true;
  for (const std::string& own : own_urls_) {
    // One is cut from the other: `url` as Chromium reports a Wasm module's,
    // or `own` as given (a long data: URL's head). Short cuts would match
    // too many URLs (e.g. "data:").
    size_t n = std::min(url.size(), own.size());
    if (n >= std::min(own.size(), kMinCutOwnUrl) &&
        url.substr(0, n) == std::string_view(own).substr(0, n))
      return true;
  }
  return false;
}

Status StackSampler::Capture(std::string_view text, StackFormat format) {
  visible_.clear();
  unclassified_.clear();
  Status st = ParseStack(text, format, &parsed_);
  if (st != Status::kOk) {
    parsed_.clear();
    return st;
  }
  // Outermost first, so a builtin knows its nearest caller with a script.
  bool caller_hidden = false;
  for (size_t i = parsed_.size(); i-- > 0;) {
    const ParsedFrame& f = parsed_[i];
    if (f.is_async) continue;
    bool hidden;
    if (IsOwnName(f.raw_name) || IsOwnScript(f.script_url)) {
      hidden = true;
      caller_hidden = true;
    } else if (f.script_url.empty()) {
      // A builtin, when kept, is attributed to its caller's script.
      hidden = !keep_builtins_ || caller_hidden;
    } else {
      StringId id = scripts_.Find(f.script_url);
      if (id.is_none()) {
        if (require_classified_) {
          bool listed = false;
          for (std::string_view u : unclassified_)
            listed = listed || u == f.script_url;
          if (!listed) unclassified_.push_back(f.script_url);
        }
        hidden = false;
      } else {
        hidden = script_muted_[id.value];
      }
      caller_hidden = hidden;
      // Eval and `new Function` code has no resource: native drops it too.
      if (f.url.empty() && !keep_builtins_) hidden = true;
    }
    if (!hidden) visible_.push_back(RawFrame{f.name, f.url, f.line, f.column});
  }
  if (!unclassified_.empty()) {
    visible_.clear();
    return Status::kUnclassifiedScript;
  }
  return Status::kOk;
}

StackId StackSampler::InternInto(ProfilerTrace* trace) {
  ids_.clear();
  // Consecutive frames mostly share a script: the resource id of the last
  // url is reused after a plain comparison instead of a hash lookup.
  std::string_view last_url;
  ResourceId last_resource = ResourceId::None();
  for (const RawFrame& f : visible_) {
    ResourceId res = ResourceId::None();
    if (!f.resource.empty()) {
      if (last_resource.is_none() || f.resource != last_url) {
        last_url = f.resource;
        last_resource = trace->InternResource(f.resource);
      }
      res = last_resource;
      if (res.is_none()) {  // resource table cap: the frame maps to nothing
        ids_.push_back(FrameId::None());
        continue;
      }
    }
    ids_.push_back(trace->InternFrame(f, res));
  }
  return trace->InternStack(ids_.data(), ids_.size());
}

Status StackSampler::Sample(std::string_view text, StackFormat format,
                            double timestamp_ms, Session* const* sessions,
                            size_t n, Status* results) {
  Status parsed = Capture(text, format);
  if (parsed == Status::kUnclassifiedScript) return parsed;
  for (size_t i = 0; i < n; ++i) {
    Session* s = sessions[i];
    // Interning only for sessions that will keep the sample: a stopped,
    // paused or full session's trace must not grow, nor one that will refuse
    // the timestamp.
    StackId stack =
        s->WouldKeep(timestamp_ms) ? InternInto(&s->trace()) : StackId::None();
    results[i] = s->TakeSample(timestamp_ms, stack);
  }
  return parsed;
}

}  // namespace webprof
