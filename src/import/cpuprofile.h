// Importer of V8's `.cpuprofile` (what DevTools' "Save profile", the CDP
// Profiler.stop result, `node --cpu-prof` and webprof's own exporter write)
// into a profiling Session, so a profile Chromium's or Node's sampler
// recorded goes out through the same exporters, summary and merger as
// webprof's.
//
// The object: `nodes` (each {id, callFrame, children?|parent?}), `startTime`
// and `endTime` (µs), `samples` (node ids) and `timeDeltas` (µs since the
// previous sample, the first since startTime) — or absolute `timestamps`
// (older V8). The tree and frame rules are v8_profile.h's. Samples are taken
// in time order (stable); their timestamps are ms since `time_origin_us`
// (default: startTime, or the first sample when that is earlier). A
// profile with nodes but no `samples` (hitCount only) has no times to
// import and is refused.
//
// Malformed or truncated text, a member of the wrong type, a sample of an
// unknown node, `samples` and `timeDeltas` of different lengths or a node
// tree with a cycle, a forward or dangling reference is kMalformedProfile
// with a sentence in `error` saying what and where (byte offsets for the
// text); nothing is added to the session then.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "base/json_cursor.h"
#include "base/status.h"
#include "import/v8_profile.h"
#include "trace/session.h"

namespace webprof {

struct CpuProfileImportOptions {
  // µs on the profile's clock (V8's monotonic one); NaN: see above.
  double time_origin_us = std::numeric_limits<double>::quiet_NaN();
  // Only samples in [start, end] (µs, the profile's clock) are kept.
  double window_start_us = -std::numeric_limits<double>::infinity();
  double window_end_us = std::numeric_limits<double>::infinity();
};

struct CpuProfileImportInfo {
  double start_us = 0;                                       // startTime
  double end_us = std::numeric_limits<double>::quiet_NaN();  // endTime
  double time_origin_us = 0;  // µs of the session's timestamp 0
  // endTime on the session's clock (ms), NaN when the profile has none:
  // the last sample lasts until then.
  double end_ms = std::numeric_limits<double>::quiet_NaN();
  uint32_t nodes = 0;
  uint32_t profile_samples = 0;  // in the file
  uint32_t samples = 0;          // kept
  bool truncated = false;        // the session's buffer filled up
};

// A cheap sniff ("not my format" is false): an object whose first member
// is "nodes" (V8 writes it first).
bool IsCpuProfile(std::string_view text);

Status ImportCpuProfile(std::string_view json,
                        const CpuProfileImportOptions& options, Session* out,
                        CpuProfileImportInfo* info, std::string* error);

// A .cpuprofile object read but not imported yet (also the Chrome trace's
// older `CpuProfile` event carries one).
struct RawCpuProfile {
  V8NodeTree tree;
  V8Samples samples;
  double start_us = std::numeric_limits<double>::quiet_NaN();
  double end_us = std::numeric_limits<double>::quiet_NaN();
  // As constructed, the storage kept (V8NodeTree::Clear).
  void Clear() {
    tree.Clear();
    samples.Clear();
    start_us = end_us = std::numeric_limits<double>::quiet_NaN();
  }
};
// Reads the object at the cursor and validates it. False: the cursor's
// error, or `error` for what is wrong with the content.
bool ReadCpuProfile(JsonCursor& c, RawCpuProfile* out, std::string* error);
// The whole text as one .cpuprofile (ImportCpuProfile's errors, its
// ".cpuprofile: " prefix included); for a reader that does not import into
// a session (the merger).
Status ReadCpuProfileText(std::string_view json, RawCpuProfile* out,
                          std::string* error);
// The default time origin: startTime, or the first sample when earlier.
double RawCpuProfileOriginUs(const RawCpuProfile& p);
// The profile's end (endTime, cut at `window_end_us`) in ms since
// `origin_us`; NaN when it has none or it is before the origin.
double RawCpuProfileEndMs(
    const RawCpuProfile& p, double origin_us,
    double window_end_us = std::numeric_limits<double>::infinity());

}  // namespace webprof
