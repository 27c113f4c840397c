// The text summary's numbers: the hottest functions of a ProfilerTrace by
// self samples (the sample's innermost frame) and total samples (any frame
// of the sample's stack).
//
// A row is a function as a reader names it — (name, resource, line) — so
// frames of one function at several columns (a sampler that records the
// position being executed) are one row. Arithmetic rules, which the old JS
// version broke (self > total for a row whose frames differ in column):
//  - a sample counts at most once towards a row's total, however many of
//    the row's frames its stack holds (recursion, mutual recursion through
//    the same function, several columns of one function);
//  - a sample's self goes to exactly one row, the one of its innermost
//    frame, which also counts that sample in its total; so self <= total
//    for every row and the selfs add up to the samples with a stack.
// Each distinct stack is walked once (samples are counted per stack first),
// so the cost is O(samples + stacks x depth).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "trace/profiler_trace.h"

namespace webprof {

struct SummaryRow {
  FrameId frame;  // the row's first frame: its name, resource and line
  uint32_t self = 0;
  uint32_t total = 0;  // >= self
};

struct TraceSummary {
  uint32_t samples = 0;     // all samples, with a stack or not
  uint32_t with_stack = 0;  // samples with a JS stack
  double duration_ms = 0;   // last sample time - first sample time
  // Rows with total > 0, by self then total, descending (first frame order
  // breaks ties); at most `top` of them.
  std::vector<SummaryRow> rows;
};

TraceSummary SummarizeTrace(const ProfilerTrace& trace, size_t top);

}  // namespace webprof
