// The scanned sources of one page (realm), by script URL.
//
// Two users read function definitions from the same scans: the W3C
// polyfill's stop() rewrites frames to definitions (ResolveFrames), and
// RuntimeProfiler's results() writes each function's definition line into
// its call tree. JS fetches each source once and adds it here; the index
// keeps the scan (definitions), never the text. In a page the index lives
// in the tools module, beside the scanner, and answers each frame's
// definition (source/frame_definitions.h) to the load-time core, which
// holds the traces: that core links neither the scanner nor the index.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/intern_index.h"
#include "base/status.h"
#include "source/source_scanner.h"

namespace webprof {

class SourceIndex {
 public:
  // Scans `source` (an HTML document's inline scripts when `html`) as the
  // script at `url`, replacing an earlier scan. On error nothing changes.
  Status Add(std::string_view url, std::string_view source, bool html);
  void Remove(std::string_view url);
  const SourceScan* Find(std::string_view url) const;

  // The scan of each of `urls` (nullptr = none): a trace's resources by
  // ResourceId (FramePositions::urls) give FrameDefinitions::Define's scans.
  std::vector<const SourceScan*> ScansFor(
      const std::vector<std::string>& urls) const;

  ScanLimits& limits() { return limits_; }

 private:
  // The row of `url`, added on first use (rows are never dropped: Remove
  // empties the row's scan; a page has one row per script it scanned).
  uint32_t Row(std::string_view url);

  // By row: the URL and its scan (null: removed). An InternIndex, as the
  // core's other indexes, not std::unordered_map.
  std::vector<std::string> urls_;
  std::vector<std::unique_ptr<SourceScan>> scans_;
  InternIndex index_;
  ScanLimits limits_;
};

}  // namespace webprof
