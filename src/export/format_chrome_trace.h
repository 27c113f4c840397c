// Chrome Trace Event JSON: {"traceEvents":[...]}, read by Perfetto, Chrome
// DevTools (Performance panel) and speedscope.
//
// Layout, in file order (Perfetto processes JSON events in order, so the
// profile's start event and every parent node come before their users):
//   M process_name / thread_name
//   P "Profile" (args.data.startTime) then P "ProfileChunk"s carrying
//     cpuProfile.nodes (all nodes, in the first chunk, parents first),
//     cpuProfile.samples and timeDeltas (equal length, µs, cumulative)
//   X events for probe traces (ts/dur in µs), i events (thread scope) for
//   marks, one i event "webprof aggregates" whose args hold every aggregate.
// All times: the core's ms converted to µs here.
#pragma once

#include <cstddef>

#include "export/byte_sink.h"
#include "export/export_input.h"

namespace webprof {

struct ChromeTraceOptions {
  ThreadNaming thread;
  // Samples per ProfileChunk event (Chrome writes small chunks; consumers
  // accept any size). 0 = one chunk.
  size_t samples_per_chunk = 16384;
};

void WriteChromeTrace(const ExportInput& in, const ChromeTraceOptions& opts,
                      ByteSink& out);

// The registry's writer (format_registry.h): default tuning.
void WriteChromeTraceFormat(const ExportInput& in, const ExportOptions& o,
                            ByteSink& out);

}  // namespace webprof
