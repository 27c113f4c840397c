// The recording window of the explicit probes (seed 004 "录制窗口") and the
// report a finished window leaves behind.
//
// Recorder owns everything the probes write: the probe name table (names are
// interned once, for the life of the Recorder, so the glue caches name -> id),
// the aggregates, and the mark and trace timelines. Start() opens a window
// (idempotent while one is open: data and capacity are kept) and re-reads
// the limits; End() closes it, compacts the traces, adds the end boundary,
// and leaves a WindowReport. Times are raw clock values in ms passed by the
// caller (the core never reads a clock).
//
// Each window gets a generation; trace ids and open aggr spans of an older
// window can never end anything of a newer one.
//
// Caps (reaching one drops and counts, never aborts; the window reports
// the counts; a probe the caps drop is refused before the glue reads the
// clock — the Admit* calls): probe names — at most kMaxNames for the Recorder's
// life (≈ kMaxNames * (name + 40 B)) and at most kMaxNewNamesPerWindow new ones
// per window (a page inventing a name per call cannot fill the table in one
// window); aggregates — AggregateTable::kMaxAggregates names per window;
// marks and traces — markLimit / traceLimit (TraceTimeline::kMaxLimit).
//
// For exporters: after End(), `last_report()` is a plain WindowReport. Mark
// and trace `timestamp` are raw clock ms (Chrome trace: ts = timestamp *
// 1000 µs, dur = duration * 1000), `start` helpers give the offset from the
// window start; names resolve through `names()`; `info` is a glue-side slot
// (kNoInfo = none) that only the JS layer can turn into an object. The report
// stays valid until the next End() or until the Recorder dies.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "probes/aggregate.h"
#include "probes/timeline.h"
#include "trace/string_table.h"

namespace webprof {

// The seed's PerfStartOptions as raw JS numbers (NaN = not given).
struct PerfStartOptions {
  static constexpr uint32_t kDefaultLimit = 1024;
  double mark_limit = kDefaultLimit;
  double trace_limit = kDefaultLimit;
};
// markLimit: an integer >= 2, else 1024. traceLimit: an integer >= 0, else
// 1024; values above TraceTimeline::kMaxLimit are clamped to it, and
// markLimit above 2^31 to 2^31 (the id and memory budget of one window).
uint32_t ResolveMarkLimit(double v);
uint32_t ResolveTraceLimit(double v);

struct AggrResult {
  StringId name;
  uint64_t count = 0;
  double sum = 0, avg = 0, max = 0, min = 0;
  double p50 = 0, p90 = 0, p99 = 0;  // LogHistogram::kRelativeErrorBound
};

struct WindowReport {
  uint32_t generation = 0;             // the window's number, from 1
  double started_at = 0;               // raw clock ms of the start boundary
  double ended_at = 0;                 // raw clock ms of the end boundary
  std::vector<AggrResult> aggregates;  // first-end order
  std::vector<MarkRecord> marks;       // start boundary first, end last
  uint64_t marks_dropped = 0;
  std::vector<TraceRecord> traces;  // start order, all complete
  uint64_t traces_dropped = 0;
  uint64_t traces_incomplete = 0;
  uint64_t aggregates_dropped = 0;  // spans of names past kMaxAggregates
  uint64_t names_dropped = 0;       // probe calls whose new name was refused

  double StartOf(const MarkRecord& m) const { return m.timestamp - started_at; }
  double StartOf(const TraceRecord& t) const {
    return t.timestamp - started_at;
  }
};

class Recorder {
 public:
  Recorder();

  static constexpr uint32_t kMaxNames = 1u << 16;
  static constexpr uint32_t kMaxNewNamesPerWindow = 4096;

  // Probe names: interned once; None (counted) when the table or this
  // window's share of new names is full — the glue must not cache that, and
  // drops the probe without reading the clock.
  StringId Intern(std::string_view name);
  const StringTable& names() const { return names_; }
  StringId start_name() const { return start_name_; }
  StringId end_name() const { return end_name_; }

  // Opens a window at `now`; true if a new one was opened, false when one
  // was already open (nothing changes then).
  bool Start(double now, const PerfStartOptions& options);
  // Closes the window at `now` into last_report(); kNotRecording if none.
  Status End(double now);
  const WindowReport& last_report() const { return report_; }

  // Aggregates (see aggregate.h). Not recording: -1 / no-op.
  int32_t AggrStart(StringId name, double t) {
    if (!recording_ || !Known(name)) return -1;
    return aggr_.Start(name, t);
  }
  bool AggrEnd(int32_t id, double t) { return recording_ && aggr_.End(id, t); }
  // Name mode: the start may come before the window; only an end inside
  // a window counts (an end outside leaves the start pending).
  void AggrStartNamed(StringId name, double t) {
    if (Known(name)) aggr_.StartNamed(name, t);
  }
  bool AggrEndNamed(StringId name, double t) {
    return recording_ && Known(name) && aggr_.EndNamed(name, t);
  }

  // Traces must start inside a window.
  int32_t TraceStart(StringId name, double t, bool named) {
    if (!recording_ || !Known(name)) return -1;
    return traces_.Start(name, t, named);
  }
  bool TraceEnd(int32_t id, double t, int32_t info) {
    return recording_ && traces_.End(id, t, info);
  }
  bool TraceEndNamed(StringId name, double t, int32_t info) {
    return recording_ && Known(name) && traces_.EndNamed(name, t, info);
  }
  bool Mark(StringId name, double t, int32_t info) {
    return recording_ && Known(name) && marks_.Add(name, t, info);
  }

  // Admission: the glue asks before it reads the clock, and calls the
  // probe's function above (with the time) only when admitted, so a probe
  // that would be dropped (a limit or cap) or ignored (a stale id, an end
  // without a start) costs no clock read. A refusal is done here — counted
  // and consumed as the call itself would have — and an admission changes
  // nothing: the call that follows is accepted.
  bool AdmitAggrStart(StringId name) {
    return recording_ && Known(name) && aggr_.AdmitStart(name);
  }
  bool AdmitAggrEnd(int32_t id) { return recording_ && aggr_.AdmitEnd(id); }
  bool AdmitAggrEndNamed(StringId name) {
    return recording_ && Known(name) && aggr_.AdmitEndNamed(name);
  }
  bool AdmitTraceStart(StringId name, bool named) {
    return recording_ && Known(name) && traces_.AdmitStart(name, named);
  }
  bool AdmitTraceEnd(int32_t id) const {
    return recording_ && traces_.AdmitEnd(id);
  }
  bool AdmitTraceEndNamed(StringId name) {
    return recording_ && Known(name) && traces_.AdmitEndNamed(name);
  }
  bool AdmitMark(StringId name) {
    return recording_ && Known(name) && marks_.Admit();
  }

  // The live window's state (tests, the glue's idempotence checks).
  const MarkTimeline& marks() const { return marks_; }
  const TraceTimeline& traces() const { return traces_; }
  const AggregateTable& aggregates() const { return aggr_; }

 private:
  bool Known(StringId name) const { return name.value < names_.size(); }

  StringTable names_{kMaxNames};
  uint32_t new_names_ = 0;      // interned since the window opened
  uint64_t names_dropped_ = 0;  // this window
  StringId start_name_, end_name_;
  AggregateTable aggr_;
  MarkTimeline marks_;
  TraceTimeline traces_;
  WindowReport report_;
  bool recording_ = false;
  uint32_t generation_ = 0;
  double started_at_ = 0;
};

}  // namespace webprof
