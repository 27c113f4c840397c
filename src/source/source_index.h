// The scanned sources of one page (realm), by script URL.
//
// Two users read function definitions from the same scans: the W3C
// polyfill's stop() rewrites frames to definitions (ResolveFrames), and
// RuntimeProfiler's results() writes each function's definition line into
// its call tree. JS fetches each source once and adds it here; the index
// keeps the scan (definitions), never the text. In a page the text is
// scanned by the tools module and arrives as records (AddRecords,
// source/scan_records.h): the load-time core links the index and its
// queries, not the scanner.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/intern_index.h"
#include "base/status.h"
#include "source/source_scanner.h"
#include "trace/profiler_trace.h"

namespace webprof {

class SourceIndex {
 public:
  // Scans `source` (an HTML document's inline scripts when `html`) as the
  // script at `url`, replacing an earlier scan. On error nothing changes.
  Status Add(std::string_view url, std::string_view source, bool html);
  // Takes the scan of the script at `url` as `count` record words
  // (EncodeScan's), replacing an earlier scan. On error nothing changes.
  Status AddRecords(std::string_view url, const uint32_t* words, size_t count);
  void Remove(std::string_view url);
  const SourceScan* Find(std::string_view url) const;

  // The scan of every resource of `trace`, by ResourceId (nullptr = none).
  std::vector<const SourceScan*> ScansFor(const ProfilerTrace& trace) const;

  ScanLimits& limits() { return limits_; }

 private:
  // The row of `url`, added on first use (rows are never dropped: Remove
  // empties the row's scan; a page has one row per script it scanned).
  uint32_t Row(std::string_view url);

  // By row: the URL and its scan (null: removed). An InternIndex, not
  // std::unordered_map, whose hash table code the page's core then does
  // not link.
  std::vector<std::string> urls_;
  std::vector<std::unique_ptr<SourceScan>> scans_;
  InternIndex index_;
  ScanLimits limits_;
};

}  // namespace webprof
