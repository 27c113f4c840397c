// Importer of a W3C ProfilerTrace as JSON text — JSON.stringify of what
// Profiler.stop() resolves with, as Chromium's native Profiler and webprof's
// polyfill give it and `webprof record` writes it — into a session, through
// the one W3C loader (trace/trace_loader.h, as given), so every rule is the
// loader's: rows re-interned, a stack's parent an earlier row (no cycle, no
// forward reference), the session's sample-time rule. Samples are first
// ordered by time (stable: Chromium's are out of order with concurrent
// profilers, and the loader as given refuses that).
//
// The object's members may come in any order (JSON.stringify of a sorted
// object puts "frames" first): each table is read in one pass into plain
// rows, then loaded in dependency order. Extra members (a frame's
// `generated`, a trace's `symbolication`) are skipped. Malformed or truncated
// text, a missing table, a member of the wrong type or a row the loader
// refuses is kMalformedProfile with a sentence naming the table, row and
// reason; no sample is added then.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "trace/session.h"

namespace webprof {

struct W3CTraceImportInfo {
  uint32_t frames = 0, stacks = 0, samples = 0;  // rows in the text
};

// A cheap sniff ("not my format" is false): an object whose first member is
// "resources", "frames", "stacks" or "samples".
bool IsW3CTrace(std::string_view text);

Status ImportW3CTrace(std::string_view json, Session* out,
                      W3CTraceImportInfo* info, std::string* error);

}  // namespace webprof
