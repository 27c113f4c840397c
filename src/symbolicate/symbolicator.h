// ScriptSymbolicator: a generated script's frames -> original frames, with
// the original function's name and definition position.
//
// A ProfilerFrame's position is where its function is defined (the `(` of
// its parameters, source/source_scanner.h). Looking that position up in the
// script's source map gives a point in the original source, usually the
// original function's start or name. The name of the original function is
// not in the map as such: `names` names *identifiers* at segments, and the
// segment before a minified function's `(` is often its name but can be
// another identifier (a property key, an assigned variable) or nothing. So
// when the map carries the original text (`sourcesContent`), the core's own
// function finder scans it (once per source, on first use) and the frame
// takes the function that starts at the mapped point (first at or after it
// on its line: tools map a function's first token, which the finder's range
// may not include) or else the innermost one holding it: its spec
// name and its definition position, exactly what the profiler would have
// reported for the unminified script. Only where there is no content, it is
// not scannable, or the function is anonymous, does the segment's `names`
// entry name the frame; with neither, the frame keeps its generated name.
// Top-level code keeps the name "" at the mapped position.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "source/source_scanner.h"
#include "symbolicate/source_map.h"

namespace webprof {

struct OriginalFrame {
  uint32_t source = OriginalPosition::kNone;  // index into the map's sources
  uint32_t line = 0, column = 0;              // 1-based
  bool has_name = false;                      // false: keep the generated name
  std::string_view name;  // valid while the symbolicator and map live
};

class ScriptSymbolicator {
 public:
  // `map` must outlive this object.
  explicit ScriptSymbolicator(const SourceMap* map) : map_(map) {}

  // False when the generated position maps to no source (the frame stays
  // as it was).
  bool Resolve(uint32_t line, uint32_t column, OriginalFrame* out);

  ScanLimits& limits() { return limits_; }

 private:
  const SourceScan* ScanOf(uint32_t source);

  const SourceMap* map_;
  ScanLimits limits_;
  // By source index: null until scanned; `scanned_` tells "failed" apart.
  std::vector<std::unique_ptr<SourceScan>> scans_;
  std::vector<bool> scanned_;
};

}  // namespace webprof
