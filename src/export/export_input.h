// What an export is made of: a ProfilerTrace and/or what probes recorded.
//
// The probes core lives in its own modules; exporters only need plain rows,
// so this header defines the small records the probes side fills (or the
// Wasm binding fills from JS). Times are milliseconds on the same clock as
// the ProfilerTrace's sample timestamps (performance.now()-relative), the
// core's one time unit; each format converts at its edge. `info_json` and
// `result_json` are pre-serialised JSON text; text that is not one valid
// JSON value is exported as a JSON string instead, so nothing is lost and
// the output stays valid.
#pragma once

#include <string>
#include <vector>

#include "trace/profiler_trace.h"

namespace webprof {

// A probes mark: a named point in time.
struct ExportMark {
  std::string name;
  double timestamp_ms = 0;
  std::string info_json;  // empty = no info
};

// A probes trace: a named interval (traceStart .. traceEnd).
struct ExportTrace {
  std::string name;
  double start_ms = 0;
  double duration_ms = 0;  // >= 0
  std::string info_json;   // empty = no info
};

// One aggregate (aggrStart/aggrEnd statistics) as its JSON result object,
// e.g. {"count":3,"sum":1.5,"p50":0.4,...}.
struct ExportAggregate {
  std::string name;
  std::string result_json;
  // Written by the core (probe_window.h), valid by construction: exporters
  // append it without checking it again.
  bool trusted = false;
};

struct ExportInput {
  const ProfilerTrace* profile = nullptr;  // optional; not owned
  std::vector<ExportMark> marks;
  std::vector<ExportTrace> traces;
  std::vector<ExportAggregate> aggregates;
};

// The process/thread naming shared by the trace formats.
struct ThreadNaming {
  int64_t pid = 1;
  int64_t tid = 1;
  std::string process_name = "webprof";
  std::string thread_name = "main";
};

// What every format's writer is given besides the input (format_registry.h).
// Format-specific tuning (chunk sizes, sequence ids) stays in each format's
// own options, at their defaults.
struct ExportOptions {
  ThreadNaming thread;
};

}  // namespace webprof
