// Each frame's function definition, asked across two Wasm modules.
//
// The scans of a page's scripts (SourceIndex) live in the tools module,
// which scans; the traces live in the page's load-time core, which rewrites
// frames to definitions (ResolveFrames) and builds RuntimeProfiler's call
// tree. So the core hands out its trace's frame positions, the tools module
// looks each one up and answers its definition, and the core takes the
// answers in (docs/ARCHITECTURE.md "What a page loads"). JS copies both sets
// of records from one module's memory into the other's without reading them,
// so their layout is known only here. All u32, positions 1-based as in the
// core (line 0 = none), strings as slices of UTF-8 after the rows, zero-padded
// to a whole word:
//   positions    header {version, resource_count, frame_count, url_bytes},
//                resource_count x {url_offset, url_length},
//                frame_count x {resource (kNoResource = none), line, column},
//                the URLs
//   definitions  header {version, frame_count, name_bytes},
//                frame_count x {flags, name_offset, name_length, line, column},
//                the names
// Decoders trust nothing: versions, counts, slices and resource ids are
// checked (kInvalidArgument, and nothing taken, otherwise).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "source/source_scanner.h"
#include "trace/profiler_trace.h"

namespace webprof {

// Where the function executing at (line, column) of a scanned script is
// defined: the innermost enclosing function, or for top-level code the
// script's start with the name "" (as Chromium reports it). `entry`: the
// position is a transformed function's entry check (a stack captured there
// has just entered it). False when the position is in no scanned script.
struct Definition {
  std::string_view name;
  uint32_t line = 0, column = 0;
  bool top_level = false;
  bool entry = false;
};
bool FindDefinition(const SourceScan& scan, uint32_t line, uint32_t column,
                    Definition* out);

// `trace`'s frames as positions records (out is replaced): written straight
// from the trace's tables, as the page's core hands them out.
void EncodeFramePositions(const ProfilerTrace& trace,
                          std::vector<uint32_t>* out);

// Positions records decoded: each frame's resource URL, line, column.
struct FramePositions {
  static constexpr uint32_t kNoResource = 0xFFFFFFFFu;
  struct Position {
    uint32_t resource, line, column;
  };
  std::vector<std::string> urls;  // by resource id
  std::vector<Position> frames;   // by frame id

  Status Decode(const uint32_t* words, size_t count);
};

// Each frame's definition, by frame id; a frame without one (unscanned
// resource, a builtin, a position in no scanned script) keeps what it has.
class FrameDefinitions {
 public:
  // The definition of each of `positions`' frames from `scans` (by resource
  // id; nullptr or out of range = not scanned).
  void Define(const std::vector<const SourceScan*>& scans,
              const FramePositions& positions);
  void Clear();

  // False for a frame without a definition (or past the last frame).
  bool Of(uint32_t frame, Definition* out) const;
  size_t size() const { return rows_.size(); }

  void Encode(std::vector<uint32_t>* out) const;  // out is replaced
  // Replaces the contents with `count` record words for a trace of
  // `frame_count` frames; on error nothing changes.
  Status Decode(const uint32_t* words, size_t count, uint32_t frame_count);

 private:
  struct Row {
    uint32_t flags;  // kDefined | kTopLevel | kEntry
    uint32_t name_offset, name_length;
    uint32_t line, column;
  };
  static constexpr uint32_t kDefined = 1, kTopLevel = 2, kEntry = 4;
  std::vector<Row> rows_;
  std::string names_;
};

}  // namespace webprof
