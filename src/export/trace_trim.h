// A trace made small enough to send from a user's page (field collection,
// js/field/): at most `max_samples` samples, no idle ones, and only the
// stacks, frames, names and resources those samples reach.
//
// Why in the core: which samples stay and which rows they keep alive is
// trace logic, the same in every front-end, and the budget loop in JS
// (js/field/collect.mjs shrinks max_samples until the compressed payload
// fits) calls it several times on one trace, so it must be cheap: two passes
// over the samples and one over the stack table, no per-sample allocation.
//
// Which samples stay: idle samples (no stackId: nothing of the page on the
// stack) go first when `drop_idle`; of the rest, when more than max_samples
// remain, an evenly spaced subset of exactly max_samples is kept (sample k
// of n stays when floor((k + 1) * max / n) > floor(k * max / n)). Thinning
// instead of cutting keeps the whole window in proportion: each kept sample
// stands for n / max of them, and the median interval between kept samples
// (pprof's period, format_pprof.h) grows by the same factor, so CPU time
// totals stay right. Stack rows are re-interned in the input's order, so
// parents still come before children and ids stay dense.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "trace/profiler_trace.h"

namespace webprof {

struct TrimOptions {
  bool drop_idle = true;
  uint32_t max_samples = 0;  // 0 = no cap
};

struct TrimResult {
  uint64_t idle_dropped = 0;     // samples without a stack left out
  uint64_t thinned_dropped = 0;  // samples left out by max_samples
};

// Writes the trimmed copy of `in` into `out`, which must be empty
// (kInvalidArgument otherwise, and nothing is written). kTableFull when
// `out` hit one of its caps (it then holds what fit; a stack that lost a
// frame is cut at its deepest stored prefix, as everywhere).
Status TrimTrace(const ProfilerTrace& in, const TrimOptions& options,
                 ProfilerTrace* out, TrimResult* result);

}  // namespace webprof
