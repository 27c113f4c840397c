// Rewrites a trace's frames from execution points to function definitions.
//
// Problem: a sampler that reads stack text records, per frame, the position
// being *executed*; one function then shows up as many frames (one per call
// site inside it) and none of them carries the spec's position, the `(` of
// the function's parameters. Given each frame's definition, looked up in
// the scanned source of its resource (FrameDefinitions: the scans are the
// tools module's, source/frame_definitions.h), ResolveFrames() rebuilds the
// trace: every frame whose
// resource was scanned and whose position lies inside a function becomes
// (function name, resource, definition line, definition column); frames
// equal after that are one frame, stacks are re-interned over the new frames
// (so stacks that now coincide merge) and every sample keeps its timestamp
// with its stack mapped. Top-level code becomes "" at its script's start
// (as Chromium reports it). Frames of unscanned resources, positions outside
// every scanned script and builtins keep what they had: nothing is lost.
//
// A stack captured at a transformed function's entry check (the sampling
// transform's `__wp$s()` right after the body's `{`) stands for its caller:
// the sample was due before the call, when the callee had not started, so
// that frame is dropped from the sample's stack (docs/ARCHITECTURE.md, the
// accuracy model). A sample whose only frame was such an entry keeps no
// stack. Frames only such samples used are not kept.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "source/frame_definitions.h"
#include "trace/profiler_trace.h"

namespace webprof {

struct ResolveStats {
  uint32_t frames_in = 0;
  uint32_t frames_out = 0;
  uint32_t frames_resolved = 0;  // moved to a function definition
  uint32_t stacks_in = 0;
  uint32_t stacks_out = 0;
};

// `definitions` are those of `trace`'s frames (by frame id; a frame past
// their end has none). Replaces `*trace`; on kTableFull (a cap hit while
// rebuilding) the trace is left unchanged.
Status ResolveFrames(const FrameDefinitions& definitions, ProfilerTrace* trace,
                     ResolveStats* stats);

}  // namespace webprof
