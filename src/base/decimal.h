// Exact decimal text of a double, without libc's printf/strtod.
//
// Problem: the core writes doubles in two places (JSON numbers in shortest
// round-trip form, the console reporter's fixed "%12.3f" cells). snprintf
// and strtod did it, and in Wasm they are among the largest code the core
// links (musl's printf core, and strtod's long-double scanner on a soft-float
// 128-bit type). Both outputs are defined by exact arithmetic, so the core
// computes them exactly itself: a double is f·2^e (integers), its decimal
// digits come from a short big-integer long division (Steele & White /
// Dragon4 style), rounded half to even on exact ties as printf rounds.
// Neither is on a per-sample path (JSON doubles are probe times; integers go
// through JsonWriter::FormatInt), so plain big-integer code is fast enough.
//
// Results equal snprintf's and strtod's for every finite double
// (tests/core/base/decimal_test.cpp compares them on random bit patterns).
#pragma once

#include <cstdint>
#include <string>

namespace webprof {

// Significant digits of a positive finite double: value = 0.d1d2..dk ×
// 10^point, d1 != 0, no trailing zeros (k >= 1).
struct DecimalDigits {
  char digits[20];
  int count = 0;
  int point = 0;
};

// The shortest of 15, 16 or 17 correctly rounded significant digits that reads
// back as v (from 1 digit up for subnormals): ECMAScript's Number::toString
// digits. v must be finite and > 0.
DecimalDigits ShortestDigits(double v);

// Appends v as printf's "%*.*f" would (width, decimals >= 0; "nan", "inf",
// "-" for a set sign bit, right-aligned with spaces).
void AppendFixed(double v, int width, int decimals, std::string* out);

// The decimal digits of v at `out` (room for 20), returning their end: the
// small writer, one digit per step. The page's core writes few integers in
// text (libc++'s std::to_string linked its two-digit table and a branchy
// writer into the page's .wasm); the exporters' JsonWriter::FormatInt keeps a
// branch-free writer for 32-bit values and calls this for wider ones.
char* FormatUnsigned(char* out, uint64_t v);

// Appends v in decimal, as std::to_string(v) would.
void AppendUnsigned(uint64_t v, std::string* out);

}  // namespace webprof
