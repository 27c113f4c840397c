// Importer of the V8 CPU profiles inside a Chrome trace (Trace Event JSON):
// what chrome://tracing, DevTools' Performance panel ("Save profile"),
// CDP Tracing with the `disabled-by-default-v8.cpu_profiler` category and
// webprof's own Chrome exporter write — `{"traceEvents": [...]}` or a bare
// array of events.
//
// A profile is the `Profile` event (ph "P", args.data.startTime µs) and the
// `ProfileChunk` events with the same (pid, id): each chunk adds nodes
// (`cpuProfile.nodes`, parents by `parent`, possibly from earlier chunks),
// samples (`cpuProfile.samples`) and their `timeDeltas` (µs since the
// profile's previous sample, across chunks); V8's last chunk carries
// `endTime`. The older `CpuProfile` event (args.data.cpuProfile, a whole
// .cpuprofile object) is one profile too. Every other event is skipped
// (read as far as needed to skip it). The tree and frame rules are
// v8_profile.h's; each profile becomes its own Session (a thread's samples
// are one time series; two threads' are not), in the order their first
// event appears. Timestamps are ms since `time_origin_us` (default: the
// earliest start or sample of all profiles of the file, so the threads
// share one clock).
//
// Malformed or truncated text, a profile event of the wrong shape, a chunk
// of a profile with no Profile event, a sample of an unknown node or a node
// tree with a cycle, a forward or dangling reference is kMalformedProfile
// with a sentence saying what and where; no session is made then. A trace
// with no profile is kNoProfileThread.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "import/cpuprofile.h"
#include "trace/session.h"

namespace webprof {

struct ChromeTraceImportOptions {
  double time_origin_us = std::numeric_limits<double>::quiet_NaN();
  // The new sessions' maxBufferSize.
  uint32_t max_buffer_size = 0xFFFFFFFFu;
};

struct ChromeTraceProfile {
  int64_t pid = 0;
  int64_t tid = 0;         // the Profile event's thread
  std::string id;          // the events' "id", e.g. "0x1"
  uint32_t samples = 0;    // kept in the session
  bool truncated = false;  // the session's buffer filled up
  // The profile's end on the session's clock (ms), NaN when the trace does
  // not say: its last sample lasts until then.
  double end_ms = std::numeric_limits<double>::quiet_NaN();
  std::unique_ptr<Session> session;
};

struct ChromeTraceImportInfo {
  double time_origin_us = 0;  // µs (the trace clock) of timestamp 0
  uint32_t events = 0;        // trace events read
};

// A cheap sniff ("not my format" is false): a JSON array, or an object
// whose first member is "traceEvents".
bool IsChromeTrace(std::string_view text);

// A profile of the trace read and validated but not imported (the merger
// folds it without a session).
struct ChromeTraceRawProfile {
  int64_t pid = 0;
  int64_t tid = 0;
  std::string id;
  RawCpuProfile profile;
};

// Reads every profile (in the order their first event appears) with
// ImportChromeTrace's rules and errors; `info->time_origin_us` is
// `time_origin_us`, or when NaN the earliest start or sample of them all.
Status ReadChromeTrace(std::string_view json, double time_origin_us,
                       std::vector<ChromeTraceRawProfile>* out,
                       ChromeTraceImportInfo* info, std::string* error);

// Appends one entry per profile to `out` (nothing on error).
Status ImportChromeTrace(std::string_view json,
                         const ChromeTraceImportOptions& options,
                         std::vector<ChromeTraceProfile>* out,
                         ChromeTraceImportInfo* info, std::string* error);

}  // namespace webprof
