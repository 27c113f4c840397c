// The core's one time unit is the millisecond (DOMHighResTimeStamp); formats
// want microseconds. Every exporter converts here, at its edge.
#pragma once

#include <cmath>
#include <cstdint>

namespace webprof {

// Milliseconds to whole microseconds (V8 and Perfetto sample times).
// Sample times are finite and >= 0 (the session checks), so rounding half
// up by truncation is exact and much cheaper than llround in hot loops.
inline int64_t MsToWholeUs(double ms) {
  return static_cast<int64_t>(ms * 1000.0 + 0.5);
}
// Milliseconds to microseconds keeping nanosecond precision, without the
// binary noise of ms * 1000 (e.g. 1.0000000000000002).
inline double MsToUs(double ms) { return std::round(ms * 1e6) / 1000.0; }
// Milliseconds to whole nanoseconds (Perfetto event times). Probe times are
// not checked to be >= 0 as sample times are, hence llround rather than the
// truncation above.
inline int64_t MsToNs(double ms) { return std::llround(ms * 1e6); }

}  // namespace webprof
