// Bindings for the explicit probes (js/probes.mjs): one Recorder per module.
//
// Every probe call is a plain export taking numbers only (name ids, probe
// ids, ms times, info slots): embind would cost 4-7 ns per call against
// ~2 ns (TOOLCHAIN.md). Names cross once, through the scratch buffer, in
// wp_probes_intern; the glue caches name -> id. Ids are int32: >= 0 an id,
// kNoId none, other negatives a Status (boundary.h EncodeStatus).
//
// A finished window is read back as one Float64Array (wp_probes_report) of
// the records boundary.h declares (ReportHeader, AggrRow, MarkRow, TraceRow).
// The console reporter formats a window's own results straight from the
// recorder (wp_probes_fmt_window), and builds a WindowReport only from what a
// manual call gave it (wp_probes_fmt_*), so both print the same way.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "bind_util.h"
#include "boundary/boundary.h"
#include "probes/reporter.h"
#include "probes/window.h"

using namespace webprof;
using namespace webprof::bind;

namespace {

StringId Name(int32_t id) {
  return id < 0 ? StringId::None() : StringId(static_cast<uint32_t>(id));
}

Recorder& Rec() {
  static Recorder* r = new Recorder();  // lives as long as the module
  return *r;
}

struct Formatting {
  WindowReport report;  // built by wp_probes_fmt_* from what JS was given
  bool own = false;     // format the recorder's last window instead
  ConsoleReporterOptions options;
  std::vector<InfoText> infos;
  std::string text;
};
Formatting& Fmt() {
  static Formatting* f = new Formatting();
  return *f;
}

std::vector<double>& ReportBuffer() {
  static std::vector<double>* b = new std::vector<double>();
  return *b;
}

// Appends one boundary record (packed doubles, boundary.h) to `out`.
template <typename Record>
void Append(const Record& r, std::vector<double>* out) {
  size_t at = out->size();
  out->resize(at + sizeof(Record) / sizeof(double));
  std::memcpy(out->data() + at, &r, sizeof(Record));
}

// One boundary::ReportHeader, then its AggrRows, MarkRows and TraceRows.
void FillReport(const WindowReport& r, std::vector<double>* out) {
  using namespace boundary;
  out->clear();
  out->reserve((sizeof(ReportHeader) + r.aggregates.size() * sizeof(AggrRow) +
                r.marks.size() * sizeof(MarkRow) +
                r.traces.size() * sizeof(TraceRow)) /
               sizeof(double));
  Append(ReportHeader{static_cast<double>(r.generation), r.started_at,
                      r.ended_at, static_cast<double>(r.aggregates.size()),
                      static_cast<double>(r.marks.size()),
                      static_cast<double>(r.marks_dropped),
                      static_cast<double>(r.traces.size()),
                      static_cast<double>(r.traces_dropped),
                      static_cast<double>(r.traces_incomplete),
                      static_cast<double>(r.aggregates_dropped),
                      static_cast<double>(r.names_dropped)},
         out);
  for (const AggrResult& a : r.aggregates) {
    Append(
        AggrRow{static_cast<double>(a.name.value), static_cast<double>(a.count),
                a.sum, a.avg, a.max, a.min, a.p50, a.p90, a.p99},
        out);
  }
  for (const MarkRecord& m : r.marks) {
    Append(MarkRow{static_cast<double>(m.name.value), m.timestamp,
                   static_cast<double>(m.info), m.boundary ? 1.0 : 0.0},
           out);
  }
  for (const TraceRecord& t : r.traces) {
    Append(TraceRow{static_cast<double>(t.name.value), t.timestamp, t.duration,
                    static_cast<double>(t.info)},
           out);
  }
}

}  // namespace

namespace webprof::bind {
const Recorder* ProbesRecorderIfAny() { return &Rec(); }
}  // namespace webprof::bind

extern "C" {

// ---- names (once per distinct name) ----
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_intern(uintptr_t ptr, uint32_t len) {
  boundary::Entry entry(instance_health);
  if (!entry) return Err(Status::kTrapped);
  StringId id = Rec().Intern(View(ptr, len));
  return id.is_none() ? Err(Status::kTableFull)
                      : static_cast<int32_t>(id.value);
}

// ---- window ----
// 1 = a new window opened, 0 = one was already open (nothing changed).
EMSCRIPTEN_KEEPALIVE WP_COLD int32_t wp_probes_start(double now,
                                                     double mark_limit,
                                                     double trace_limit) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  PerfStartOptions o;
  o.mark_limit = mark_limit;
  o.trace_limit = trace_limit;
  return Rec().Start(now, o) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE WP_COLD int32_t wp_probes_end(double now) {
  boundary::Entry entry(instance_health);
  if (!entry) return kTrapped;
  return static_cast<int32_t>(Rec().End(now));
}

// ---- hot paths ----
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_aggr_start(int32_t name, double t) {
  boundary::Entry entry(instance_health);
  if (!entry) return Err(Status::kTrapped);
  return Rec().AggrStart(Name(name), t);
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_aggr_end(int32_t id, double t) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  return Rec().AggrEnd(id, t) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void wp_probes_aggr_start_named(int32_t name, double t) {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  Rec().AggrStartNamed(Name(name), t);
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_aggr_end_named(int32_t name, double t) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  return Rec().AggrEndNamed(Name(name), t) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_trace_start(int32_t name, double t,
                                                   int32_t named) {
  boundary::Entry entry(instance_health);
  if (!entry) return Err(Status::kTrapped);
  return Rec().TraceStart(Name(name), t, named != 0);
}
// `info` is the glue's slot for the info object (-1 none); 1 = accepted, and
// only then does the glue store the object in that slot.
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_trace_end(int32_t id, double t,
                                                 int32_t info) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  return Rec().TraceEnd(id, t, info) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_trace_end_named(int32_t name, double t,
                                                       int32_t info) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  return Rec().TraceEndNamed(Name(name), t, info) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_mark(int32_t name, double t,
                                            int32_t info) {
  boundary::Entry entry(instance_health);
  if (!entry) return 0;
  return Rec().Mark(Name(name), t, info) ? 1 : 0;
}

// ---- admission (before the glue reads the clock) ----
// 1 = admitted: the glue reads the clock and makes the timed call above,
// which accepts it. 0 = refused, and already counted or consumed here
// (Recorder::Admit*): the probe is dropped without a clock read.
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_admit_aggr_start(int32_t name) {
  boundary::Entry entry(instance_health);
  return entry && Rec().AdmitAggrStart(Name(name)) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_admit_aggr_end(int32_t id) {
  boundary::Entry entry(instance_health);
  return entry && Rec().AdmitAggrEnd(id) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_admit_aggr_end_named(int32_t name) {
  boundary::Entry entry(instance_health);
  return entry && Rec().AdmitAggrEndNamed(Name(name)) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_admit_trace_start(int32_t name,
                                                         int32_t named) {
  boundary::Entry entry(instance_health);
  return entry && Rec().AdmitTraceStart(Name(name), named != 0) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_admit_trace_end(int32_t id) {
  boundary::Entry entry(instance_health);
  return entry && Rec().AdmitTraceEnd(id) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_admit_trace_end_named(int32_t name) {
  boundary::Entry entry(instance_health);
  return entry && Rec().AdmitTraceEndNamed(Name(name)) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int32_t wp_probes_admit_mark(int32_t name) {
  boundary::Entry entry(instance_health);
  return entry && Rec().AdmitMark(Name(name)) ? 1 : 0;
}

// ---- readback ----
// The last finished window as doubles (records at FillReport); valid until the
// next wp_probes_report call. Its length is wp_probes_report_len().
EMSCRIPTEN_KEEPALIVE WP_COLD const double* wp_probes_report() {
  boundary::Entry entry(instance_health);
  if (!entry) return nullptr;
  FillReport(Rec().last_report(), &ReportBuffer());
  return ReportBuffer().data();
}
EMSCRIPTEN_KEEPALIVE WP_COLD uint32_t wp_probes_report_len() {
  return static_cast<uint32_t>(ReportBuffer().size());
}
// ---- console reporter ----
// The SortKey for the UTF-8 text at ptr, or -Status-1.
EMSCRIPTEN_KEEPALIVE WP_COLD int32_t wp_probes_sort_key(uintptr_t ptr,
                                                        uint32_t len) {
  boundary::Entry entry(instance_health);
  if (!entry) return Err(Status::kTrapped);
  SortKey k;
  Status s = ParseSortKey(View(ptr, len), &k);
  return s == Status::kOk ? static_cast<int32_t>(k) : Err(s);
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_probes_fmt_begin(
    double generation, double started_at, double ended_at, double marks_dropped,
    double traces_dropped, double traces_incomplete) {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  Formatting& f = Fmt();
  f.report = WindowReport{};
  f.report.generation = static_cast<uint32_t>(generation);
  f.report.started_at = started_at;
  f.report.ended_at = ended_at;
  f.report.marks_dropped = static_cast<uint64_t>(marks_dropped);
  f.report.traces_dropped = static_cast<uint64_t>(traces_dropped);
  f.report.traces_incomplete = static_cast<uint64_t>(traces_incomplete);
  f.own = false;
  f.options = ConsoleReporterOptions{};
  f.infos.clear();
}
// Starts formatting the recorder's own last window (no rows from JS: only
// its info texts and filter verdicts follow). 0, or kInvalidArgument when the
// last window is not window `generation` any more.
EMSCRIPTEN_KEEPALIVE WP_COLD int32_t wp_probes_fmt_window(double generation) {
  if (Rec().last_report().generation != generation)
    return static_cast<int32_t>(Status::kInvalidArgument);
  Formatting& f = Fmt();
  f.report = WindowReport{};
  f.own = true;
  f.options = ConsoleReporterOptions{};
  f.infos.clear();
  return 0;
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_probes_fmt_aggr(int32_t name, double count,
                                                     double sum, double avg,
                                                     double max, double min,
                                                     double p50, double p90,
                                                     double p99) {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  AggrResult a;
  a.name = Name(name);
  a.count = static_cast<uint64_t>(count);
  a.sum = sum;
  a.avg = avg;
  a.max = max;
  a.min = min;
  a.p50 = p50;
  a.p90 = p90;
  a.p99 = p99;
  Fmt().report.aggregates.push_back(a);
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_probes_fmt_mark(int32_t name,
                                                     double timestamp,
                                                     int32_t info,
                                                     int32_t boundary) {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  Fmt().report.marks.push_back(
      MarkRecord{Name(name), info, timestamp, boundary != 0});
}
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_probes_fmt_trace(int32_t name,
                                                      double timestamp,
                                                      double duration,
                                                      int32_t info) {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  Fmt().report.traces.push_back(
      TraceRecord{Name(name), info, timestamp, duration});
}
// Info slot `slot`: JSON text at ptr (printable) or unprintable.
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_probes_fmt_info(int32_t slot,
                                                     int32_t printable,
                                                     uintptr_t ptr,
                                                     uint32_t len) {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  if (slot < 0) return;
  Formatting& f = Fmt();
  if (f.infos.size() <= static_cast<size_t>(slot)) f.infos.resize(slot + 1);
  InfoText& i = f.infos[slot];
  i.present = true;
  i.printable = printable != 0;
  i.json.assign(printable ? View(ptr, len) : std::string_view());
}
// A JS predicate's verdict: name `name` is shown.
EMSCRIPTEN_KEEPALIVE WP_COLD void wp_probes_fmt_allow(int32_t name) {
  boundary::Entry entry(instance_health);
  if (!entry) return;
  if (name < 0) return;
  auto& allowed = Fmt().options.allowed;
  if (allowed.size() <= static_cast<size_t>(name)) allowed.resize(name + 1);
  allowed[name] = 1;
}
// filter_mode: a boundary::ConsoleFilter (kPrefix: the prefix is the UTF-8
// at ptr; kAllowed: the names wp_probes_fmt_allow allowed, even if none).
// Returns a pointer to the text; its length is wp_probes_fmt_len(). Valid until
// the next wp_probes_fmt_begin.
EMSCRIPTEN_KEEPALIVE WP_COLD const char* wp_probes_fmt_run(int32_t sort_key,
                                                           int32_t header,
                                                           int32_t filter_mode,
                                                           uintptr_t ptr,
                                                           uint32_t len) {
  boundary::Entry entry(instance_health);
  if (!entry) return "";
  Formatting& f = Fmt();
  f.options.sort_by = static_cast<SortKey>(sort_key);
  f.options.header = header != 0;
  const auto mode = static_cast<boundary::ConsoleFilter>(filter_mode);
  f.options.has_prefix = mode == boundary::ConsoleFilter::kPrefix;
  if (f.options.has_prefix) f.options.prefix.assign(View(ptr, len));
  if (mode != boundary::ConsoleFilter::kAllowed) {
    f.options.allowed.clear();
  } else if (f.options.allowed.empty()) {
    f.options.allowed.push_back(0);  // nothing allowed still filters
  }
  f.text = FormatConsoleReport(f.own ? Rec().last_report() : f.report,
                               Rec().names(), f.options, f.infos);
  return f.text.c_str();
}
EMSCRIPTEN_KEEPALIVE WP_COLD uint32_t wp_probes_fmt_len() {
  return static_cast<uint32_t>(Fmt().text.size());
}

}  // extern "C"
