#include "export/format_chrome_trace.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "export/cpu_profile_nodes.h"
#include "export/json_writer.h"

namespace webprof {
namespace {

constexpr std::string_view kProfilerCategory =
    "disabled-by-default-v8.cpu_profiler";

void EventHead(JsonWriter& w, const ThreadNaming& t, std::string_view ph,
               std::string_view name, std::string_view cat) {
  w.BeginObject();
  w.Key("name");
  w.String(name);
  if (!cat.empty()) {
    w.Key("cat");
    w.String(cat);
  }
  w.Key("ph");
  w.String(ph);
  w.Key("pid");
  w.Int(t.pid);
  w.Key("tid");
  w.Int(t.tid);
}

void NameEvent(JsonWriter& w, const ThreadNaming& t, std::string_view name,
               std::string_view value) {
  // Chrome writes metadata events with cat "__metadata"; some importers
  // (speedscope) recognise a Chrome trace by its first event having `cat`.
  EventHead(w, t, "M", name, "__metadata");
  w.Key("ts");
  w.Int(0);
  w.Key("args");
  w.BeginObject();
  w.Key("name");
  w.String(value);
  w.EndObject();
  w.EndObject();
}

void AppendInt(std::string* out, int64_t v) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out->append(digits, static_cast<size_t>(end - digits));
}

void WriteNodes(JsonWriter& w, const ProfilerTrace& p) {
  w.Key("nodes");
  w.BeginArray();
  w.BeginObject();
  WriteCallFrame(w, p, FrameId::None(), "(root)", ScriptIdStyle::kNumber);
  w.Key("id");
  w.Int(kRootNodeId);
  w.EndObject();
  if (HasStacklessSamples(p)) {
    w.BeginObject();
    WriteCallFrame(w, p, FrameId::None(), "(program)", ScriptIdStyle::kNumber);
    w.Key("id");
    w.Int(kProgramNodeId);
    w.Key("parent");
    w.Int(kRootNodeId);
    w.EndObject();
  }
  // One node per stack row (tens of thousands): each is assembled as text
  // from its frame's cached callFrame and written as one piece, the same
  // bytes as member-by-member writing at a fraction of the calls.
  const auto& rows = p.stacks().rows();
  CallFrameCache call_frames(p, ScriptIdStyle::kNumber);
  std::string node;
  for (uint32_t i = 0; i < rows.size(); ++i) {
    node.assign(R"({"callFrame":)");
    node += call_frames.Value(rows[i].frame);
    node += R"(,"id":)";
    AppendInt(&node, NodeIdForStack(StackId(i)));
    node += R"(,"parent":)";
    AppendInt(&node, rows[i].parent.is_none() ? kRootNodeId
                                              : NodeIdForStack(rows[i].parent));
    node += '}';
    w.Verbatim(node);
  }
  w.EndArray();
}

void WriteProfile(JsonWriter& w, const ExportInput& in,
                  const ChromeTraceOptions& o) {
  const ProfilerTrace& p = *in.profile;
  const SampleBuffer& samples = p.samples();
  int64_t start_us = samples.empty() ? 0 : MsToWholeUs(samples[0].timestamp);
  EventHead(w, o.thread, "P", "Profile", kProfilerCategory);
  w.Key("id");
  w.String("0x1");
  w.Key("ts");
  w.Int(start_us);
  w.Key("args");
  w.BeginObject();
  w.Key("data");
  w.BeginObject();
  w.Key("startTime");
  w.Int(start_us);
  w.EndObject();
  w.EndObject();
  w.EndObject();

  SampleTextCaches text(p);
  size_t per_chunk = o.samples_per_chunk ? o.samples_per_chunk : samples.size();
  size_t begin = 0;
  int64_t prev_us = start_us;
  do {  // at least one chunk, which carries the nodes
    size_t end = std::min(samples.size(), begin + per_chunk);
    int64_t chunk_ts =
        end > begin ? MsToWholeUs(samples[begin].timestamp) : start_us;
    EventHead(w, o.thread, "P", "ProfileChunk", kProfilerCategory);
    w.Key("id");
    w.String("0x1");
    w.Key("ts");
    w.Int(chunk_ts);
    w.Key("args");
    w.BeginObject();
    w.Key("data");
    w.BeginObject();
    w.Key("cpuProfile");
    w.BeginObject();
    if (begin == 0) WriteNodes(w, p);
    WriteSampleNodeIds(w, samples, begin, end, text);
    w.EndObject();  // cpuProfile
    WriteTimeDeltas(w, samples, begin, end, &prev_us, text);
    if (end == samples.size() && in.end_ms >= 0) {
      // As V8's last chunk: where the last sample ends.
      w.Key("endTime");
      w.Int(ProfileEndUs(in));
    }
    w.EndObject();  // data
    w.EndObject();  // args
    w.EndObject();
    begin = end;
  } while (begin < samples.size());
}

void WriteInfoArgs(JsonWriter& w, std::string_view info) {
  if (info.empty()) return;
  w.Key("args");
  w.BeginObject();
  w.Key("info");
  w.Raw(info);
  w.EndObject();
}

}  // namespace

void WriteChromeTrace(const ExportInput& in, const ChromeTraceOptions& o,
                      ByteSink& out) {
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("traceEvents");
  w.BeginArray();
  NameEvent(w, o.thread, "process_name", o.thread.process_name);
  NameEvent(w, o.thread, "thread_name", o.thread.thread_name);
  if (in.profile) WriteProfile(w, in, o);

  double last_ms = 0;
  for (const ExportTrace& t : in.traces) {
    EventHead(w, o.thread, "X", t.name, "webprof");
    w.Key("ts");
    w.Double(MsToUs(t.start_ms));
    w.Key("dur");
    w.Double(MsToUs(t.duration_ms));
    WriteInfoArgs(w, t.info_json);
    w.EndObject();
    last_ms = std::max(last_ms, t.start_ms + t.duration_ms);
  }
  for (const ExportMark& m : in.marks) {
    EventHead(w, o.thread, "i", m.name, "webprof");
    w.Key("s");
    w.String("t");
    w.Key("ts");
    w.Double(MsToUs(m.timestamp_ms));
    WriteInfoArgs(w, m.info_json);
    w.EndObject();
    last_ms = std::max(last_ms, m.timestamp_ms);
  }
  if (!in.aggregates.empty()) {
    if (in.profile && !in.profile->samples().empty())
      last_ms = std::max(last_ms, in.profile->samples().back().timestamp);
    EventHead(w, o.thread, "i", "webprof aggregates", "webprof");
    w.Key("s");
    w.String("t");
    w.Key("ts");
    w.Double(MsToUs(last_ms));
    w.Key("args");
    w.BeginObject();
    for (const ExportAggregate& a : in.aggregates) {
      w.Key(a.name);
      if (a.trusted)
        w.Verbatim(a.result_json);
      else
        w.Raw(a.result_json);
    }
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.Key("displayTimeUnit");
  w.String("ms");
  w.EndObject();
}

void WriteChromeTraceFormat(const ExportInput& in, const ExportOptions& o,
                            ByteSink& out) {
  ChromeTraceOptions co;
  co.thread = o.thread;
  WriteChromeTrace(in, co, out);
}

}  // namespace webprof
