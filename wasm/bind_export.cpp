// Bindings for the exporters: load a W3C ProfilerTrace (through the core's
// TraceLoader) and probe records in bulk, write one format of the registry,
// hand the bytes to JS chunk by chunk.
//
// Ownership: JS creates an ExportBuilder (embind) and must delete() it; it
// owns its ProfilerTrace, its ExportInput and the output ByteSink. Input
// arrives in a few bulk calls over buffers JS malloc()ed and filled (strings
// as one UTF-8 blob + a Uint32Array of byte lengths, numbers as
// Float64Array/Uint32Array; samples straight into the trace's own storage),
// never one call per sample. Output stays in the sink's chunks in Wasm
// memory; JS copies each chunk once into a single ArrayBuffer and then calls
// clearOutput(). Every load call validates its rows and returns a Status; on
// error nothing from that call is kept.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "base/status.h"
#include "bind_util.h"
#include "boundary/boundary.h"
#include "export/byte_sink.h"
#include "export/export_input.h"
#include "export/format_registry.h"
#include "export/probe_window.h"
#include "export/summary.h"
#include "trace/profiler_trace.h"
#include "trace/session.h"
#include "trace/trace_loader.h"

using namespace emscripten;
using namespace webprof;

namespace {

// Walks a blob of consecutive UTF-8 strings given their byte lengths.
class Strings {
 public:
  Strings(uintptr_t blob, uintptr_t lens)
      : p_(reinterpret_cast<const char*>(blob)),
        lens_(reinterpret_cast<const uint32_t*>(lens)) {}
  std::string_view Next() {
    std::string_view s(p_, lens_[i_++]);
    p_ += s.size();
    return s;
  }

 private:
  const char* p_;
  const uint32_t* lens_;
  size_t i_ = 0;
};

class ExportBuilder {
 public:
  // Resources: `count` URLs (trace/trace_loader.h does every load rule).
  int32_t loadResources(uintptr_t blob, uintptr_t lens, uint32_t count) {
    Strings s(blob, lens);
    for (uint32_t i = 0; i < count; ++i) {
      Status st = loader_.AddResource(s.Next());
      if (st != Status::kOk) return int32_t(st);
    }
    return 0;
  }

  // Frames: names in the blob; webprof::boundary::LoadFrameRow rows in W3C
  // input numbering.
  int32_t loadFrames(uintptr_t blob, uintptr_t lens, uintptr_t rows,
                     uint32_t count) {
    Strings s(blob, lens);
    auto* r = reinterpret_cast<const webprof::boundary::LoadFrameRow*>(rows);
    for (uint32_t i = 0; i < count; ++i) {
      Status st =
          loader_.AddFrame(s.Next(), r[i].resource, r[i].line, r[i].column);
      if (st != Status::kOk) return int32_t(st);
    }
    return 0;
  }

  // Stacks: boundary::StackRow rows [frame, parent|kNoneU32] in W3C input
  // numbering; a parent must come first.
  int32_t loadStacks(uintptr_t rows, uint32_t count) {
    return int32_t(
        loader_.AddStacks(reinterpret_cast<const uint32_t*>(rows), count));
  }

  // Samples: JS fills the reserved rows in Wasm memory as f64 [timestamp
  // ms, W3C stackId or -1] (TraceLoader::ReserveSamples), then commits.
  uintptr_t reserveSamples(uint32_t n) {
    SampleBuffer::Span span = loader_.ReserveSamples(n);
    reserved_ = uint32_t(span.size);
    return reinterpret_cast<uintptr_t>(span.data);
  }
  uint32_t reservedSamples() const { return reserved_; }
  int32_t commitSamples() {
    reserved_ = 0;
    return int32_t(loader_.CommitSamples());
  }

  // Marks: blob holds (name, info JSON) pairs; f64 timestamps (ms).
  int32_t addMarks(uintptr_t blob, uintptr_t lens, uintptr_t times,
                   uint32_t count) {
    Strings s(blob, lens);
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
    Strings s(blob, lens);
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
    Strings s(blob, lens);
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
    Strings s(blob, lens);
    std::vector<std::string> infos(count);
    for (uint32_t i = 0; i < count; ++i) infos[i] = std::string(s.Next());
    AddWindowReport(rec.last_report(), rec.names(), parts, infos, &input_);
    return 0;
  }

  // Process/thread naming: blob holds (process name, thread name).
  void setThread(double pid, double tid, uintptr_t blob, uintptr_t lens) {
    Strings s(blob, lens);
    ThreadNaming& t = options_.thread;
    t.pid = static_cast<int64_t>(pid);
    t.tid = static_cast<int64_t>(tid);
    t.process_name = std::string(s.Next());
    t.thread_name = std::string(s.Next());
  }

  // Exports the trace a TraceSession recorded, in place (no copy, no
  // reload): `handle` is JsSession::handle(), i.e. the Session's address.
  // The session must outlive write(); JS holds it for the whole call.
  void useSession(uintptr_t handle) {
    session_trace_ = &reinterpret_cast<Session*>(handle)->trace();
  }

  // `format` is an ExportFormat id (exportFormats()).
  int32_t write(int32_t format) {
    loader_.DropSamples();
    reserved_ = 0;
    input_.profile = session_trace_          ? session_trace_
                     : loader_.has_samples() ? &trace_
                                             : nullptr;
    return int32_t(WriteExport(format, input_, options_, out_));
  }

  // The summary's numbers (export/summary.h) of the loaded or used trace:
  // {samples, withStack, durationMs, top: [{name, url, line, self, total}]}
  // (url "" and line 0 when absent).
  val summarize(uint32_t top) {
    loader_.DropSamples();
    reserved_ = 0;
    const ProfilerTrace& t = session_trace_ ? *session_trace_ : trace_;
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

  double size() const { return double(out_.size()); }
  uint32_t chunkCount() const { return uint32_t(out_.chunk_count()); }
  uintptr_t chunkPtr(uint32_t i) const {
    return reinterpret_cast<uintptr_t>(out_.chunk_data(i));
  }
  uint32_t chunkLength(uint32_t i) const {
    return uint32_t(out_.chunk_length(i));
  }
  void clearOutput() { out_.Clear(); }

 private:
  ProfilerTrace trace_;
  ExportInput input_;
  ExportOptions options_;
  ByteSink out_;
  const ProfilerTrace* session_trace_ = nullptr;  // not owned
  TraceLoader loader_{&trace_};
  uint32_t reserved_ = 0;  // sample rows JS is filling
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
  class_<ExportBuilder>("ExportBuilder")
      .constructor<>()
      .function("loadResources", &ExportBuilder::loadResources)
      .function("loadFrames", &ExportBuilder::loadFrames)
      .function("loadStacks", &ExportBuilder::loadStacks)
      .function("reserveSamples", &ExportBuilder::reserveSamples)
      .function("reservedSamples", &ExportBuilder::reservedSamples)
      .function("commitSamples", &ExportBuilder::commitSamples)
      .function("addMarks", &ExportBuilder::addMarks)
      .function("addTraces", &ExportBuilder::addTraces)
      .function("addAggregates", &ExportBuilder::addAggregates)
      .function("useWindow", &ExportBuilder::useWindow)
      .function("setThread", &ExportBuilder::setThread)
      .function("useSession", &ExportBuilder::useSession)
      .function("write", &ExportBuilder::write)
      .function("summarize", &ExportBuilder::summarize)
      .function("size", &ExportBuilder::size)
      .function("chunkCount", &ExportBuilder::chunkCount)
      .function("chunkPtr", &ExportBuilder::chunkPtr)
      .function("chunkLength", &ExportBuilder::chunkLength)
      .function("clearOutput", &ExportBuilder::clearOutput);
}
