// A strict RFC 8259 checker for one JSON value.
//
// Used where pre-serialised JSON text from outside (a probe's `info`, an
// aggregate's result) is embedded into an export: invalid text must not make
// the whole file unreadable, so the writer checks it first. Tests use it too.
// It accepts exactly RFC 8259: one value with optional surrounding
// whitespace, valid UTF-8 only, no NaN/Infinity, no trailing commas, nesting
// limited to kMaxDepth (deeper text is rejected, never overflowing the
// small Wasm stack: the checker is iterative).
#pragma once

#include <string_view>

namespace webprof {

constexpr int kJsonMaxDepth = 256;

bool IsValidJsonValue(std::string_view text);

}  // namespace webprof
