// pprof's profile.proto, gzipped (profile.pb.gz): read by `go tool pprof`,
// Grafana Pyroscope, Parca, Google Cloud Profiler and Datadog.
//
// Shape (github.com/google/pprof proto/profile.proto):
//   sample_type  [samples/count, cpu/nanoseconds]; cpu is the default (last,
//                as in Go's own CPU profiles), period_type cpu/nanoseconds;
//   sample       one per distinct stack that samples use: location ids leaf
//                first, values [number of samples, their CPU time in ns];
//   location     one per frame (id = FrameId + 1) with one Line {function,
//                line, column}, all in one mapping (id 1) that says functions,
//                file names and lines are present, so pprof never tries to
//                symbolize addresses (there are none);
//   function     one per frame: name ("(anonymous)" for ""), the script URL
//                as filename, the frame's line as start_line (a W3C frame's
//                position is its function's);
//   string_table "" at index 0, as the format requires.
// Time: every sample stands for one period, as in Go's own CPU profiles and
// in the self time DevTools' profile view derives from a .cpuprofile's
// hitCounts — not for the time until the next sample: a sampler that takes
// no samples while the page idles (the polyfill's) would give the idle time
// to whatever ran last. period = the median interval between samples (the
// sampler's effective interval), 0 when fewer than two samples exist. Stackless
// samples are "(program)", as in the JSON formats. Probe
// marks/traces/aggregates have no place in pprof and are not written.
#pragma once

#include <cstdint>

#include "export/byte_sink.h"
#include "export/export_input.h"

namespace webprof {

struct PprofOptions {
  bool gzip = true;  // false: the bare profile.proto bytes (tests, tools)
  // Deeper stacks keep their innermost frames under one "(truncated)" root,
  // so output stays linear in the distinct stacks (as in format_perfetto.h).
  uint32_t max_stack_frames = 1024;
};

void WritePprof(const ExportInput& in, const PprofOptions& opts, ByteSink& out);

// The registry's writer (format_registry.h): gzipped, default depth.
void WritePprofFormat(const ExportInput& in, const ExportOptions& o,
                      ByteSink& out);

// Field numbers of perftools.profiles (profile.proto); the tests decode our
// output with protoc against tests/fixtures/pprof/profile.proto.
namespace pp {
enum ProfileField : uint32_t {
  kSampleType = 1,
  kSample = 2,
  kMapping = 3,
  kLocation = 4,
  kFunction = 5,
  kStringTable = 6,
  kDurationNanos = 10,
  kPeriodType = 11,
  kPeriod = 12,
};
}  // namespace pp

}  // namespace webprof
