// The call-tree view of a ProfilerTrace shared by the V8-shaped formats
// (Chrome trace `P` events and `.cpuprofile`).
//
// Both formats describe samples as a tree of nodes with a "(root)" node.
// The stack table already is that tree (rows (frame, parent), parent first),
// so node ids are a fixed mapping and no tree is rebuilt:
//   1             "(root)"
//   2             "(program)", only if some sample has no stack
//   3 + stack id  the stack row's innermost frame
// Samples without a stack are attributed to "(program)", V8's name for time
// not attributable to a JS function. The W3C trace cannot tell idle time from
// GC, layout or other scripts (all arrive as "no stackId"), so "(idle)"
// would claim more than we know.
#pragma once

#include <cmath>
#include <cstdint>

#include "json_writer.h"
#include "profiler_trace.h"
#include "time_units.h"

namespace webprof {

constexpr int64_t kRootNodeId = 1;
constexpr int64_t kProgramNodeId = 2;

inline int64_t NodeIdForStack(StackId s) {
  return s.is_none() ? kProgramNodeId : int64_t{s.value} + 3;
}

// True when some sample has no stack (so node 2 "(program)" exists).
bool HasStacklessSamples(const ProfilerTrace& t);

enum class ScriptIdStyle { kNumber, kString };

// Writes the V8 callFrame object of `frame` (or of a synthetic node when
// `frame` is None, using `synthetic_name`). lineNumber/columnNumber are
// 0-based in V8 and -1 when unknown; the core is 1-based with 0 = absent,
// so this is the one place that converts.
void WriteCallFrame(JsonWriter& w, const ProfilerTrace& t, FrameId frame,
                    std::string_view synthetic_name, ScriptIdStyle style);

}  // namespace webprof
