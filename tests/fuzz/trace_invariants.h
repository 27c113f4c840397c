// The integrity every trace keeps, whoever filled it — an importer, the
// trace loader, a session driven call by call — checked by the fuzz targets
// after each input. One copy, so a rule tightened here is checked by every
// target that builds a trace. A failed check aborts: libFuzzer reports that
// as a crash with the input that caused it (an assert would compile out
// under NDEBUG).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "base/status.h"
#include "trace/profiler_trace.h"

namespace webprof::fuzz {

inline void Check(bool ok) {
  if (!ok) std::abort();
}

// Frames name interned strings and a resource in range (or none); each
// stack row's frame exists and its parent comes first (the prefix tree is
// appended parent first); samples are finite, not negative and in time
// order (session.h SampleTimeStatus), each with a known stack or none.
inline void CheckTrace(const ProfilerTrace& t) {
  for (uint32_t i = 0; i < t.frames().size(); ++i) {
    const Frame& f = t.frames().Get(FrameId(i));
    Check(t.names().Contains(f.name));
    Check(f.resource.is_none() || f.resource.value < t.resources().size());
  }
  for (uint32_t i = 0; i < t.stacks().size(); ++i) {
    const Stack& row = t.stacks().Get(StackId(i));
    Check(t.frames().Contains(row.frame));
    Check(row.parent.is_none() || row.parent.value < i);
  }
  double prev = 0;
  for (size_t i = 0; i < t.samples().size(); ++i) {
    const Sample& s = t.samples()[i];
    Check(std::isfinite(s.timestamp) && s.timestamp >= prev);
    Check(s.stack.is_none() || t.stacks().Contains(s.stack));
    prev = s.timestamp;
  }
}

// An importer's outcome in one session: a refusal says why and leaves the
// session empty; an acceptance keeps as many samples as it reported, in a
// trace that passes CheckTrace.
inline void CheckImport(Status st, const std::string& error,
                        const ProfilerTrace& t, size_t reported_samples) {
  if (st != Status::kOk) {
    Check(!error.empty());
    Check(t.samples().size() == 0 && t.frames().size() == 0);
    return;
  }
  Check(t.samples().size() == reported_samples);
  CheckTrace(t);
}

}  // namespace webprof::fuzz
