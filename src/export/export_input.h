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

#include <cstdint>
#include <limits>
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

// What one sample of a weighted profile stands for (see ExportInput).
struct SampleWeight {
  uint64_t count = 0;   // samples of the inputs
  int64_t time_ns = 0;  // their time, in all
};

struct ExportInput {
  const ProfilerTrace* profile = nullptr;  // optional; not owned
  // A merged profile (merge/profile_merger.h) is weighted: sample i of
  // `profile` stands for (*weights)[i] — so many samples of the inputs, so
  // much time — and its samples are laid end to end (each lasts
  // weights[i].time_ns, until the next). Null: a sample is one sample.
  // Not owned; one entry per sample of `profile`.
  const std::vector<SampleWeight>* weights = nullptr;
  // When the profile's last sample ends (ms, the samples' clock); NaN: not
  // known. Formats that record an end (.cpuprofile endTime, the Chrome
  // trace's last ProfileChunk) write it; without it, the last sample's time.
  double end_ms = std::numeric_limits<double>::quiet_NaN();
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
