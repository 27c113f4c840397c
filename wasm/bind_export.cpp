// Bindings for the exporters: take a session's trace (in place) and probe
// records in bulk, write one format of the registry, hand the bytes to JS
// chunk by chunk. (A W3C trace object is first loaded into a session:
// wasm/bind_load.cpp.)
//
// Ownership: JS creates an ExportBuilder (wp_export_new; js/core/bindings.mjs
// gives it an object with delete()) and must delete() it; it
// owns its ExportInput and the output ByteSink, not the session's trace.
// Input arrives in a few bulk calls over buffers JS malloc()ed and filled
// (strings as one UTF-8 blob + a Uint32Array of byte lengths, numbers as
// Float64Array/Uint32Array), never one call per record. Output stays in the
// sink's chunks in Wasm memory; JS copies each chunk once into a single
// ArrayBuffer and then calls clearOutput(). Every add call validates its
// records and returns a Status; on error nothing from that call is kept.
#include <emscripten/emscripten.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "bind_util.h"
#include "boundary/boundary.h"
#include "export/byte_sink.h"
#include "export/export_input.h"
#include "export/format_registry.h"
#include "export/json_writer.h"
#include "export/probe_window.h"
#include "export/summary.h"
#include "trace/profiler_trace.h"
#include "trace/session.h"

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
  // info JSON text of each of `count` info slots ("" = none). An instance
  // without a recorder (the tools module) has no window: kInvalidArgument.
  int32_t useWindow(double generation, uint32_t parts, uintptr_t blob,
                    uintptr_t lens, uint32_t count) {
    const Recorder* recorder = bind::ProbesRecorderIfAny();
    if (recorder == nullptr) return int32_t(Status::kInvalidArgument);
    const Recorder& rec = *recorder;
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

  // The summary's numbers (export/summary.h) of the used session's trace as
  // the result text, JSON: {samples, withStack, durationMs, top: [{name,
  // url, line, self, total}]} (url "" and line 0 when absent).
  void summarize(uint32_t top) {
    static const ProfilerTrace kEmpty;  // no profile: all counts 0
    const ProfilerTrace& t = session_trace_ ? *session_trace_ : kEmpty;
    TraceSummary s = SummarizeTrace(t, top);
    ByteSink sink;
    JsonWriter w(&sink);
    w.BeginObject();
    w.Key("samples");
    w.Int(s.samples);
    w.Key("withStack");
    w.Int(s.with_stack);
    w.Key("durationMs");
    w.Double(s.duration_ms);
    w.Key("top");
    w.BeginArray();
    for (const SummaryRow& r : s.rows) {
      const Frame& f = t.frames().Get(r.frame);
      w.BeginObject();
      w.Key("name");
      w.String(t.frame_name(r.frame));
      w.Key("url");
      w.String(f.resource.is_none() ? std::string_view()
                                    : t.resource_url(f.resource));
      w.Key("line");
      w.Int(f.line);
      w.Key("self");
      w.Int(r.self);
      w.Key("total");
      w.Int(r.total);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    bind::SetResultText(sink.ToString());
  }

  // What write() wrote, read by JS through bind_embind.h's accessors.
  ByteSink& output() { return out_; }

 private:
  ExportInput input_;
  ExportOptions options_;
  ByteSink out_;
  const ProfilerTrace* session_trace_ = nullptr;  // not owned; null: none
};

ExportBuilder* At(uintptr_t p) { return reinterpret_cast<ExportBuilder*>(p); }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE uintptr_t wp_export_new() {
  return reinterpret_cast<uintptr_t>(new ExportBuilder());
}
EMSCRIPTEN_KEEPALIVE void wp_export_delete(uintptr_t p) { delete At(p); }
EMSCRIPTEN_KEEPALIVE int32_t wp_export_add_marks(uintptr_t p, uintptr_t blob,
                                                 uintptr_t lens,
                                                 uintptr_t times,
                                                 uint32_t count) {
  return At(p)->addMarks(blob, lens, times, count);
}
EMSCRIPTEN_KEEPALIVE int32_t wp_export_add_traces(uintptr_t p, uintptr_t blob,
                                                  uintptr_t lens,
                                                  uintptr_t times,
                                                  uint32_t count) {
  return At(p)->addTraces(blob, lens, times, count);
}
EMSCRIPTEN_KEEPALIVE int32_t wp_export_add_aggregates(uintptr_t p,
                                                      uintptr_t blob,
                                                      uintptr_t lens,
                                                      uint32_t count) {
  return At(p)->addAggregates(blob, lens, count);
}
EMSCRIPTEN_KEEPALIVE int32_t
wp_export_use_window(uintptr_t p, double generation, uint32_t parts,
                     uintptr_t blob, uintptr_t lens, uint32_t count) {
  return At(p)->useWindow(generation, parts, blob, lens, count);
}
EMSCRIPTEN_KEEPALIVE void wp_export_set_thread(uintptr_t p, double pid,
                                               double tid, uintptr_t blob,
                                               uintptr_t lens) {
  At(p)->setThread(pid, tid, blob, lens);
}
EMSCRIPTEN_KEEPALIVE void wp_export_use_session(uintptr_t p, uintptr_t handle) {
  At(p)->useSession(handle);
}
EMSCRIPTEN_KEEPALIVE int32_t wp_export_write(uintptr_t p, int32_t format) {
  return At(p)->write(format);
}
EMSCRIPTEN_KEEPALIVE void wp_export_summarize(uintptr_t p, uint32_t top) {
  At(p)->summarize(top);
}

// The output, as bind_embind.h's accessors read it in the Node-side core's
// classes: size, then each chunk's address and length, then clear.
EMSCRIPTEN_KEEPALIVE double wp_export_size(uintptr_t p) {
  return double(At(p)->output().size());
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_export_chunk_count(uintptr_t p) {
  return uint32_t(At(p)->output().chunk_count());
}
EMSCRIPTEN_KEEPALIVE uintptr_t wp_export_chunk_ptr(uintptr_t p, uint32_t i) {
  return reinterpret_cast<uintptr_t>(At(p)->output().chunk_data(i));
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_export_chunk_length(uintptr_t p, uint32_t i) {
  return uint32_t(At(p)->output().chunk_length(i));
}
EMSCRIPTEN_KEEPALIVE void wp_export_clear_output(uintptr_t p) {
  At(p)->output().Clear();
}

}  // extern "C"
