// V8 `.cpuprofile` (the JSON Chrome DevTools saves; also opened by VS Code
// and speedscope): {"nodes":[...],"startTime","endTime","samples",
// "timeDeltas"}.
//
// Nodes follow cpu_profile_nodes.h (root 1, "(program)" 2 for stackless
// samples, stack s -> 3 + s), each with callFrame, hitCount and children.
// Children lists are built from the stack table's parent column in one
// counting pass (CSR arrays), not by a map per node. startTime/endTime and
// timeDeltas are whole µs; deltas are taken between rounded absolute times
// so rounding never drifts. Only the profile is exported: this format has no
// place for marks, traces or aggregates.
#pragma once

#include "export/byte_sink.h"
#include "export/export_input.h"

namespace webprof {

// Writes `in.profile` (an empty profile when it is null).
void WriteCpuProfile(const ExportInput& in, ByteSink& out);

// The registry's writer (format_registry.h): default tuning.
void WriteCpuProfileFormat(const ExportInput& in, const ExportOptions& o,
                           ByteSink& out);

}  // namespace webprof
