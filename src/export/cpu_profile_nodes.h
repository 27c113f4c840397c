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
#include <string>
#include <vector>

#include "base/time_units.h"
#include "export/export_input.h"
#include "export/json_writer.h"
#include "trace/profiler_trace.h"

namespace webprof {

constexpr int64_t kRootNodeId = 1;
constexpr int64_t kProgramNodeId = 2;

inline int64_t NodeIdForStack(StackId s) {
  return s.is_none() ? kProgramNodeId : int64_t{s.value} + 3;
}

// Text caches for the two per-sample arrays of both formats: node ids
// (samples) and µs deltas (timeDeltas) repeat few values. Below
// kMinSamples there are none (null): filling them would cost more than
// formatting. Deltas up to 65 ms are cached (sampling intervals are ms).
class SampleTextCaches {
 public:
  static constexpr size_t kMinSamples = 10000;
  explicit SampleTextCaches(const ProfilerTrace& t)
      : on_(t.samples().size() >= kMinSamples),
        node_ids_(on_ ? t.stacks().size() + 3 : 0),
        deltas_(on_ ? 1 << 16 : 0) {}
  IntTextCache* node_ids() { return on_ ? &node_ids_ : nullptr; }
  IntTextCache* deltas() { return on_ ? &deltas_ : nullptr; }

 private:
  bool on_;
  IntTextCache node_ids_, deltas_;
};

// The member "samples": the node ids of samples [begin, end).
void WriteSampleNodeIds(JsonWriter& w, const SampleBuffer& samples,
                        size_t begin, size_t end, SampleTextCaches& text);
// The member "timeDeltas" of samples [begin, end) in µs. Deltas are taken
// between rounded absolute times, so rounding never accumulates; `*prev_us`
// is the time the first delta counts from and is left at the last sample's
// (a format split into chunks carries it over).
void WriteTimeDeltas(JsonWriter& w, const SampleBuffer& samples, size_t begin,
                     size_t end, int64_t* prev_us, SampleTextCaches& text);

// Where the profile ends in µs: `in.end_ms` when given (and not before the
// last sample), else the last sample's time (0 without samples).
int64_t ProfileEndUs(const ExportInput& in);

// True when some sample has no stack (so node 2 "(program)" exists).
bool HasStacklessSamples(const ProfilerTrace& t);

enum class ScriptIdStyle { kNumber, kString };

// Writes the member "callFrame": the V8 callFrame object of `frame` (or of
// a synthetic node when `frame` is None, using `synthetic_name`).
// lineNumber/columnNumber are 0-based in V8 and -1 when unknown; the core is
// 1-based with 0 = absent, so this is the one place that converts.
void WriteCallFrame(JsonWriter& w, const ProfilerTrace& t, FrameId frame,
                    std::string_view synthetic_name, ScriptIdStyle style);

// The "callFrame" members of a trace's frames, each formatted once. A stack
// table has many more rows than distinct frames (the benchmark shape: 19k
// rows over 400 frames), and formatting a callFrame (five members, string
// checks) was most of the cost of a node list; a row now copies its frame's
// finished text. Memory: the text of the frames used, once each.
class CallFrameCache {
 public:
  CallFrameCache(const ProfilerTrace& t, ScriptIdStyle style)
      : trace_(t), style_(style), spans_(t.frames().size()) {}

  // Same output as WriteCallFrame(w, t, frame, "", style); frame not None.
  void Write(JsonWriter& w, FrameId frame) {
    w.Key("callFrame");
    w.Verbatim(Value(frame));
  }
  // The callFrame object's JSON text (valid until the next call).
  std::string_view Value(FrameId frame);

 private:
  struct Span {
    size_t begin = 0, size = 0;  // size 0: not formatted yet
  };
  const ProfilerTrace& trace_;
  ScriptIdStyle style_;
  std::vector<Span> spans_;  // by frame id, into text_
  std::string text_;         // every formatted callFrame value, back to back
};

}  // namespace webprof
