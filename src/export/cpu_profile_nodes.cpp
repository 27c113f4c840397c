#include "export/cpu_profile_nodes.h"

#include <string>

namespace webprof {

int64_t ProfileEndUs(const ExportInput& in) {
  const SampleBuffer* s = in.profile ? &in.profile->samples() : nullptr;
  int64_t last = s && !s->empty() ? MsToWholeUs(s->back().timestamp) : 0;
  if (!(in.end_ms >= 0)) return last;  // NaN too
  int64_t end = MsToWholeUs(in.end_ms);
  return end > last ? end : last;
}

bool HasStacklessSamples(const ProfilerTrace& t) {
  const SampleBuffer& s = t.samples();
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i].stack.is_none()) return true;
  return false;
}

void WriteSampleNodeIds(JsonWriter& w, const SampleBuffer& samples,
                        size_t begin, size_t end, SampleTextCaches& text) {
  w.Key("samples");
  w.BeginArray();
  w.IntElements(
      end - begin,
      [&](size_t k) { return NodeIdForStack(samples[begin + k].stack); },
      text.node_ids());
  w.EndArray();
}

void WriteTimeDeltas(JsonWriter& w, const SampleBuffer& samples, size_t begin,
                     size_t end, int64_t* prev_us, SampleTextCaches& text) {
  int64_t prev = *prev_us;
  w.Key("timeDeltas");
  w.BeginArray();
  w.IntElements(
      end - begin,
      [&](size_t k) {
        int64_t us = MsToWholeUs(samples[begin + k].timestamp);
        int64_t delta = us - prev;
        prev = us;
        return delta;
      },
      text.deltas());
  w.EndArray();
  *prev_us = prev;
}

namespace {

void WriteCallFrameValue(JsonWriter& w, const ProfilerTrace& t, FrameId frame,
                         std::string_view synthetic_name, ScriptIdStyle style) {
  std::string_view name = synthetic_name, url;
  int64_t script = 0, line = -1, column = -1;
  if (!frame.is_none()) {
    const Frame& f = t.frames().Get(frame);
    name = t.names().Get(f.name);
    if (!f.resource.is_none()) {
      url = t.resource_url(f.resource);
      script = int64_t{f.resource.value} + 1;  // V8 reserves 0 for "none"
    }
    // 1-based (0 = absent) -> 0-based (-1 = absent).
    line = f.line ? int64_t{f.line} - 1 : -1;
    column = f.column ? int64_t{f.column} - 1 : -1;
  }
  w.BeginObject();
  w.Key("functionName");
  w.String(name);
  w.Key("scriptId");
  if (style == ScriptIdStyle::kString) {
    w.String(std::to_string(script));
  } else {
    w.Int(script);
  }
  w.Key("url");
  w.String(url);
  w.Key("lineNumber");
  w.Int(line);
  w.Key("columnNumber");
  w.Int(column);
  w.EndObject();
}

}  // namespace

void WriteCallFrame(JsonWriter& w, const ProfilerTrace& t, FrameId frame,
                    std::string_view synthetic_name, ScriptIdStyle style) {
  w.Key("callFrame");
  WriteCallFrameValue(w, t, frame, synthetic_name, style);
}

std::string_view CallFrameCache::Value(FrameId frame) {
  Span& span = spans_[frame.value];
  if (span.size == 0) {
    ByteSink sink(512);  // one callFrame is ~100 bytes plus its strings
    JsonWriter value(&sink);
    WriteCallFrameValue(value, trace_, frame, "", style_);
    span = Span{text_.size(), sink.size()};
    text_ += sink.ToString();
  }
  return std::string_view(text_).substr(span.begin, span.size);
}

}  // namespace webprof
