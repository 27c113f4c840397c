// Perfetto protobuf trace (.pftrace), read by ui.perfetto.dev and
// trace_processor.
//
// One packet sequence (trusted_packet_sequence_id 1) carrying:
//   1. ClockSnapshot (BOOTTIME == MONOTONIC) with
//   SEQ_INCREMENTAL_STATE_CLEARED,
//      so samples (MONOTONIC) and track events (BOOTTIME) share one axis;
//   2. TrackDescriptors for the process, the thread and extra "lanes";
//   3. ThreadDescriptor (pid, tid, reference_timestamp_us) plus all interned
//      data: function names, frames, callstacks, one dummy Mapping (Perfetto
//      before v53 drops frames without one) and event names;
//   4. StreamingProfilePackets (callstack_iid + timestamp_delta_us, both
//      written UNPACKED, batched) — the CPU-profile flamegraph;
//   5. TrackEvent slices (SLICE_BEGIN/END) for probe traces, instants for
//      marks and one instant holding the aggregates as debug annotations.
// Packets that refer to interned ids set SEQ_NEEDS_INCREMENTAL_STATE.
//
// Slices on one track must nest. Probe traces may overlap without nesting
// (async code), so traces are placed greedily on lanes: a trace goes to the
// first lane where it nests inside the open slices; lane 0 is the thread
// track, others are child tracks named "<thread> traces N".
//
// iids: function name = StringId + 1, frame = FrameId + 1, callstack =
// StackId + 1 (iids start at 1); stackless samples use one extra
// "(program)" frame/callstack, as the JSON formats do.
#pragma once

#include <cstddef>

#include "export/byte_sink.h"
#include "export/export_input.h"

namespace webprof {

struct PerfettoOptions {
  ThreadNaming thread;
  uint32_t sequence_id = 1;
  size_t samples_per_packet = 1000;
  // Perfetto's Callstack lists every frame (no parent pointer), so a stack of
  // depth d costs d ids: writing every prefix of a deep stack is quadratic.
  // Only stacks that samples use are written, each with at most this many
  // frames: deeper ones keep their innermost frames under one
  // "(truncated)" root, so the output is linear in the samples.
  uint32_t max_callstack_frames = 1024;
};

void WritePerfettoTrace(const ExportInput& in, const PerfettoOptions& opts,
                        ByteSink& out);

// The registry's writer (format_registry.h): default tuning.
void WritePerfettoFormat(const ExportInput& in, const ExportOptions& o,
                         ByteSink& out);

// Field numbers from Perfetto's published protos (protos/perfetto/trace/...);
// tests decode our output with protoc and a .proto using the same numbers.
namespace pf {
enum TracePacketField : uint32_t {
  kTracePacket = 1,  // Trace.packet
  kClockSnapshot = 6,
  kTimestamp = 8,
  kTrustedPacketSequenceId = 10,
  kTrackEvent = 11,
  kInternedData = 12,
  kSequenceFlags = 13,
  kThreadDescriptor = 44,
  kStreamingProfilePacket = 54,
  kTrackDescriptor = 60,
};
enum SequenceFlags : uint32_t { kCleared = 1, kNeedsIncrementalState = 2 };
enum BuiltinClock : uint32_t { kMonotonic = 3, kBoottime = 6 };
enum TrackEventType : uint32_t { kSliceBegin = 1, kSliceEnd = 2, kInstant = 3 };
}  // namespace pf

}  // namespace webprof
