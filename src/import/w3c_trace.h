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
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "trace/session.h"

namespace webprof {

struct W3CTraceImportInfo {
  uint32_t frames = 0, stacks = 0, samples = 0;  // rows in the text
};

// A cheap sniff ("not my format" is false): an object whose first member is
// "resources", "frames", "stacks" or "samples".
bool IsW3CTrace(std::string_view text);

// The trace's tables as read from the text and validated (W3C indices;
// kNone = absent): every index names a row, a stack's parent is an earlier
// row, sample times are finite and >= 0; samples in time order (stable).
// Strings view the text (or `owned`, for those that had escapes).
struct W3CTraceRows {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  struct Frame {
    std::string_view name;
    uint32_t resource = kNone, line = 0, column = 0;  // 1-based, 0: absent
  };
  struct Sample {
    double timestamp;  // ms
    double stack;      // a W3C stack index, -1: none
  };
  std::vector<std::string_view> resources;
  std::vector<Frame> frames;
  std::vector<uint32_t> stacks;  // [frame, parent] rows
  std::vector<Sample> samples;
  std::deque<std::string> owned;
  // Empty as constructed, the storage kept (a reader of many inputs).
  void Clear() {
    resources.clear();
    frames.clear();
    stacks.clear();
    samples.clear();
    owned.clear();
  }
};

// ImportW3CTrace's reading and every check of its rows (its errors), for a
// reader that does not import into a session (the merger).
Status ReadW3CTrace(std::string_view json, W3CTraceRows* out,
                    std::string* error);

Status ImportW3CTrace(std::string_view json, Session* out,
                      W3CTraceImportInfo* info, std::string* error);

}  // namespace webprof
