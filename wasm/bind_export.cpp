// Bindings for the exporters: take a session's trace (in place) and probe
// records in bulk, write one format of the registry, hand the bytes to JS
// chunk by chunk. (A W3C trace object is first loaded into a session:
// wasm/bind_load.cpp.)
//
// Ownership: JS creates an ExportBuilder (embind) and must delete() it; it
// owns its ExportInput and the output ByteSink, not the session's trace.
// Input arrives in a few bulk calls over buffers JS malloc()ed and filled
// (strings as one UTF-8 blob + a Uint32Array of byte lengths, numbers as
// Float64Array/Uint32Array), never one call per record. Output stays in the
// sink's chunks in Wasm memory; JS copies each chunk once into a single
// ArrayBuffer and then calls clearOutput(). Every add call validates its
// records and returns a Status; on error nothing from that call is kept.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "base/status.h"
#include "bind_embind.h"
#include "bind_util.h"
#include "boundary/boundary.h"
#include "export/byte_sink.h"
#include "export/export_input.h"
#include "export/format_registry.h"
#include "export/probe_window.h"
#include "export/summary.h"
#include "trace/profiler_trace.h"
#include "trace/session.h"

using namespace emscripten;
using namespace webprof;

namespace {

class ExportBuilder {
 public:
  // Marks: blob holds (name, info JSON) pairs; f64 timestamps (ms).
  int32_t addMarks(uintptr_t blob, uintptr_t lens, uintptr_t times,
                   uint32_t count) {
    bind::Strings s(blob, lens);
    auto* t = reinterpret_cast<const double*>(times);
    for (uint32_t i = 0; i < count; ++i) {
      if (!std::isfinite(t[i])) return int32_t(Status::kInvalidTimestamp);
    }
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name = s.Next(), info = s.Next();
      input_.marks.push_back(
          ExportMark{std::string(name), t[i], std::string(info)});
    }
    return 0;
  }

  // Traces: (name, info JSON) pairs; boundary::TraceTimesRow rows.
  int32_t addTraces(uintptr_t blob, uintptr_t lens, uintptr_t times,
                    uint32_t count) {
    bind::Strings s(blob, lens);
    auto* t = reinterpret_cast<const webprof::boundary::TraceTimesRow*>(times);
    for (uint32_t i = 0; i < count; ++i) {
      if (!std::isfinite(t[i].start) || !std::isfinite(t[i].duration) ||
          t[i].duration < 0)
        return int32_t(Status::kInvalidArgument);
    }
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name = s.Next(), info = s.Next();
      input_.traces.push_back(ExportTrace{std::string(name), t[i].start,
                                          t[i].duration, std::string(info)});
    }
    return 0;
  }

  // Aggregates: (name, result JSON) pairs.
  int32_t addAggregates(uintptr_t blob, uintptr_t lens, uint32_t count) {
    bind::Strings s(blob, lens);
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name = s.Next(), json = s.Next();
      input_.aggregates.push_back(
          ExportAggregate{std::string(name), std::string(json)});
    }
    return 0;
  }

  // The probes part straight from the recorder's last window, which must
  // still be window `generation`: `parts` are WindowPart bits; blob holds the
  // info JSON text of each of `count` info slots ("" = none).
  int32_t useWindow(double generation, uint32_t parts, uintptr_t blob,
                    uintptr_t lens, uint32_t count) {
    const Recorder& rec = bind::ProbesRecorder();
    if (rec.last_report().generation != generation)
      return int32_t(Status::kInvalidArgument);
    bind::Strings s(blob, lens);
    std::vector<std::string> infos(count);
    for (uint32_t i = 0; i < count; ++i) infos[i] = std::string(s.Next());
    AddWindowReport(rec.last_report(), rec.names(), parts, infos, &input_);
    return 0;
  }

  // Process/thread naming: blob holds (process name, thread name).
  void setThread(double pid, double tid, uintptr_t blob, uintptr_t lens) {
    bind::Strings s(blob, lens);
    ThreadNaming& t = options_.thread;
    t.pid = static_cast<int64_t>(pid);
    t.tid = static_cast<int64_t>(tid);
    t.process_name = std::string(s.Next());
    t.thread_name = std::string(s.Next());
  }

  // The profile part: the trace of a TraceSession (one that recorded, or
  // one a W3C trace object was loaded into: wasm/bind_load.cpp), written in
  // place: `handle` is JsSession::handle(), i.e. the Session's address.
  // The session must outlive write(); JS holds it for the whole call.
  void useSession(uintptr_t handle) {
    session_trace_ = &reinterpret_cast<Session*>(handle)->trace();
  }

  // `format` is an ExportFormat id (exportFormats()).
  int32_t write(int32_t format) {
    input_.profile = session_trace_;
    return int32_t(WriteExport(format, input_, options_, out_));
  }

  // The summary's numbers (export/summary.h) of the used session's trace:
  // {samples, withStack, durationMs, top: [{name, url, line, self, total}]}
  // (url "" and line 0 when absent).
  val summarize(uint32_t top) {
    static const ProfilerTrace kEmpty;  // no profile: all counts 0
    const ProfilerTrace& t = session_trace_ ? *session_trace_ : kEmpty;
    TraceSummary s = SummarizeTrace(t, top);
    val rows = val::array();
    for (const SummaryRow& r : s.rows) {
      const Frame& f = t.frames().Get(r.frame);
      val o = val::object();
      o.set("name", std::string(t.frame_name(r.frame)));
      o.set("url", f.resource.is_none()
                       ? std::string()
                       : std::string(t.resource_url(f.resource)));
      o.set("line", f.line);
      o.set("self", r.self);
      o.set("total", r.total);
      rows.call<void>("push", o);
    }
    val out = val::object();
    out.set("samples", s.samples);
    out.set("withStack", s.with_stack);
    out.set("durationMs", s.duration_ms);
    out.set("top", rows);
    return out;
  }

  // What write() wrote, read by JS through bind_embind.h's accessors.
  ByteSink& output() { return out_; }

 private:
  ExportInput input_;
  ExportOptions options_;
  ByteSink out_;
  const ProfilerTrace* session_trace_ = nullptr;  // not owned; null: none
};

// The format registry as plain objects, in its order.
val ExportFormatList() {
  val list = val::array();
  for (const ExportFormat& f : ExportFormats()) {
    val o = val::object();
    o.set("id", f.id);
    o.set("key", std::string(f.key));
    o.set("name", std::string(f.name));
    o.set("fileStem", std::string(f.file_stem));
    o.set("extension", std::string(f.extension));
    o.set("mimeType", std::string(f.mime_type));
    list.call<void>("push", o);
  }
  return list;
}

}  // namespace

EMSCRIPTEN_BINDINGS(export) {
  function("exportFormats", &ExportFormatList);
  class_<ExportBuilder> builder("ExportBuilder");
  builder.constructor<>()
      .function("addMarks", &ExportBuilder::addMarks)
      .function("addTraces", &ExportBuilder::addTraces)
      .function("addAggregates", &ExportBuilder::addAggregates)
      .function("useWindow", &ExportBuilder::useWindow)
      .function("setThread", &ExportBuilder::setThread)
      .function("useSession", &ExportBuilder::useSession)
      .function("write", &ExportBuilder::write)
      .function("summarize", &ExportBuilder::summarize);
  bind::WithOutput(builder);
}
