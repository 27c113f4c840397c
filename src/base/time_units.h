// The core's one time unit is the millisecond (DOMHighResTimeStamp); formats
// want microseconds. Every exporter converts here, at its edge.
#pragma once

#include <cmath>
#include <cstdint>

namespace webprof {

// Times past ±2^61 µs or ns (≈ 73 years of ns) are written as ±2^61: never
// an int64 overflow (undefined behaviour), and the sum or difference of two
// such values still fits (deltas, ends).
inline constexpr double kTimeLimit = 2305843009213693952.0;  // 2^61
inline constexpr int64_t kTimeLimitI = int64_t{1} << 61;

// The one rule for a time an importer takes from a profile or a caller (a
// .cpuprofile's startTime/endTime and its timeOrigin option, µs; a Gecko
// profile's meta.startTime and its timeOrigin option, Unix ms): finite,
// >= 0 and at most 2^53 µs — about 285 years, Unix time to the year 2255;
// past it a double no longer holds every µs, and no profiler's clock is
// there. nullptr when `us` obeys it, else why not, for "<name> " + that.
inline constexpr double kMaxProfileTimeUs = 9007199254740992.0;  // 2^53
inline const char* ProfileTimeProblem(double us) {
  if (!std::isfinite(us)) return "is not a finite number";
  if (us < 0) return "is negative: a profile's clock starts at 0";
  if (us > kMaxProfileTimeUs)
    return "is past 2^53 µs (the year 2255 as Unix time): no profile's clock";
  return nullptr;
}

// ProfileTimeProblem for a time in milliseconds (Gecko's). A finite time past
// 1.8e305 ms is no infinity: clamped before it is scaled, it is "past 2^53 µs".
inline const char* ProfileTimeProblemMs(double ms) {
  if (!std::isfinite(ms)) return ProfileTimeProblem(ms);
  return ProfileTimeProblem(std::fmin(std::fmax(ms, -1.0), kMaxProfileTimeUs) *
                            1000);
}

// Milliseconds to whole microseconds (V8 and Perfetto sample times).
// Sample times are finite and >= 0 (the session checks), so rounding half
// up by truncation is exact and much cheaper than llround in hot loops.
inline int64_t MsToWholeUs(double ms) {
  double us = ms * 1000.0 + 0.5;
  return us < kTimeLimit ? static_cast<int64_t>(us) : kTimeLimitI;
}
// Milliseconds to microseconds keeping nanosecond precision, without the
// binary noise of ms * 1000 (e.g. 1.0000000000000002).
inline double MsToUs(double ms) { return std::round(ms * 1e6) / 1000.0; }
// Milliseconds to whole nanoseconds (Perfetto event times). Probe times are
// not checked to be >= 0 as sample times are, hence llround rather than the
// truncation above.
inline int64_t MsToNs(double ms) {
  double ns = ms * 1e6;
  if (!(ns < kTimeLimit)) return ns > 0 ? kTimeLimitI : 0;  // NaN: 0
  if (ns <= -kTimeLimit) return -kTimeLimitI;
  // llround's value (half away from zero) without its libm call — the
  // merger converts every sample of every input: truncation is exact here
  // and so is the fraction left over (an integral double leaves 0).
  int64_t t = static_cast<int64_t>(ns);
  const double frac = ns - static_cast<double>(t);
  if (frac >= 0.5) ++t;
  if (frac <= -0.5) --t;
  return t;
}

// µs since an origin (a V8 sample's time) to whole ns: MsToNs(us / 1000)'s
// value. V8's times are whole µs: within 2^40 µs (12 days) us / 1000 * 1e6
// is within 1/4 of us * 1000 (two roundings of 2^-53 each), which MsToNs
// rounds to, so that is the value — without a division and the rounding
// per sample; any other `us` takes MsToNs.
inline int64_t UsToNs(double us) {
  if (std::fabs(us) < 1099511627776.0) {  // 2^40
    const int64_t whole = static_cast<int64_t>(us);
    if (static_cast<double>(whole) == us) return whole * 1000;
  }
  return MsToNs(us / 1000.0);
}

}  // namespace webprof
