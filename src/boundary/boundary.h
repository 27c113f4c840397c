// The JS <-> Wasm boundary, declared once: every number the JS layer and the
// core must agree on. DeclarationsJson() writes all of it as one JSON object,
// which both Wasm builds (the page's core and the probes' own) export the
// same way (wasm/bind_boundary.cpp wp_boundary); js/core/boundary.mjs is the
// one JS module that reads it, and no JS module keeps a copy of any of these
// numbers.
//
// What crosses, and where it is declared:
//  - status codes and names: base/status.h's one list (JS looks a code up
//    by its name, e.g. Status.BufferFull);
//  - session states: trace/session.h's SessionState, named here for JS;
//  - ids in int32 results: >= 0 an id, kNoId for none, any other negative
//    value a Status (EncodeStatus); in u32 rows "none" is kNoneU32;
//  - the sampler configuration kinds and the console reporter's filter
//    modes (enums below);
//  - the width of a sample's session mask;
//  - the built-in export formats (export/format_list.h; ExportFormatsJson);
//  - the records JS reads or writes in Wasm memory, as structs of one
//    scalar type whose layouts are checked against the core structs they
//    mirror (static_asserts at the end). JS gets each record's field
//    indices and size in scalars, never a hand-counted offset.
// This header is the boundary's top layer: it may include any concept of
// src/, none of them includes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/ids.h"
#include "base/status.h"
#include "export/format_registry.h"
#include "export/probe_window.h"
#include "sampling/session_set.h"
#include "sampling/stack_sampler.h"
#include "source/html_scripts.h"
#include "trace/frame.h"
#include "trace/sample.h"
#include "trace/session.h"
#include "trace/stack.h"

namespace webprof::boundary {

// ---- ids and "none" ----
constexpr int32_t kNoId = -1;
// An id result that failed: -(status + 1), so every code is < kNoId.
constexpr int32_t EncodeStatus(Status s) {
  return -static_cast<int32_t>(s) - 1;
}
constexpr uint32_t kNoneU32 = StackId::kNoneValue;

// ---- sessions ----
#define WEBPROF_SESSION_STATE_NAMES(X) \
  X(kStarted, "started")               \
  X(kPaused, "paused")                 \
  X(kStopped, "stopped")
// The name JS shows for a state (TraceSession.state); never null.
const char* SessionStateName(SessionState s);

// A sample's session mask selects attached session i by bit i (sessions
// past the last bit are always selected): sampling/session_set.h.
constexpr int32_t kSampleMaskBits = SessionSet::kMaskBits;

// ---- sampler configuration ----
// What a sampler's configure(kind, text) call sets (the W3C Profiler's
// sampler and RuntimeProfiler's take the same kinds).
#define WEBPROF_SAMPLER_CONFIG_LIST(X)                                         \
  X(kOwnUrlPrefix, "OwnUrlPrefix")   /* frames under this URL are own */       \
  X(kOwnNameMarker, "OwnNameMarker") /* functions named so are own */          \
  X(kOwnUrl, "OwnUrl")     /* own file (the Wasm core), also when cut short */ \
  X(kNotMuted, "NotMuted") /* this script is not CORS-muted */                 \
  X(kMuted, "Muted")       /* this script is CORS-muted */                     \
  X(kRequireClassified, "RequireClassified") /* text non-empty: on */          \
  X(kKeepBuiltins,                                                             \
    "KeepBuiltins") /* frames without a script; text non-empty: on */

enum class SamplerConfig : int32_t {
#define WEBPROF_BOUNDARY_ENUM(name, js) name,
  WEBPROF_SAMPLER_CONFIG_LIST(WEBPROF_BOUNDARY_ENUM)
#undef WEBPROF_BOUNDARY_ENUM
};
// Applies one configuration call; kInvalidArgument for an unknown kind.
Status ConfigureSampler(StackSampler& sampler, int32_t kind,
                        std::string_view text);

// ---- console reporter ----
// Which names a console report shows: all, those under a prefix, or those
// a JS predicate allowed (even when it allowed none).
#define WEBPROF_CONSOLE_FILTER_LIST(X) \
  X(kNone, "None")                     \
  X(kPrefix, "Prefix")                 \
  X(kAllowed, "Allowed")

enum class ConsoleFilter : int32_t {
#define WEBPROF_BOUNDARY_ENUM(name, js) name,
  WEBPROF_CONSOLE_FILTER_LIST(WEBPROF_BOUNDARY_ENUM)
#undef WEBPROF_BOUNDARY_ENUM
};

// ---- export formats ----
// The format ids JS passes to ExportBuilder.write(). The built-in formats'
// ids, keys, names, file stems, extensions and MIME types
// (export/format_list.h) reach JS through ExportFormatsJson (below): a page
// lists them before the writers (in the tools module) are loaded; JS keeps no
// copy.
using ExportFormatId = ::webprof::ExportFormatId;

// Which parts of a finished probes window an export reads straight from the
// recorder (bits; export/probe_window.h): JS sends the others itself.
#define WEBPROF_WINDOW_PART_LIST(X)  \
  X(kWindowAggregates, "Aggregates") \
  X(kWindowMarks, "Marks")           \
  X(kWindowTraces, "Traces")

// ---- records in Wasm memory ----
// Each record is declared by its field list (C++ name, JS name), which
// makes both the struct and the field table JS reads.
#define WEBPROF_BOUNDARY_FIELD(type, cpp, js) type cpp;

// A session's samples read back, and a profile's samples written by JS into
// the core's sample storage: f64 [timestamp ms, stack id or kNoId].
#define WEBPROF_SAMPLE_ROW(X)       \
  X(double, timestamp, "timestamp") \
  X(double, stack, "stack")
// Samples of one capture written by JS (the ticker's ticks, a session mask
// each: sampling/session_set.h DueSample): f64 [timestamp ms, mask].
#define WEBPROF_DUE_ROW(X)          \
  X(double, timestamp, "timestamp") \
  X(double, mask, "mask")
// A session's stack table read back (u32; parent kNoneU32 = none).
#define WEBPROF_STACK_ROW(X)  \
  X(uint32_t, frame, "frame") \
  X(uint32_t, parent, "parent")
// A session's frame table read back (u32; line/column 0 = absent).
#define WEBPROF_FRAME_ROW(X)        \
  X(uint32_t, name, "name")         \
  X(uint32_t, resource, "resource") \
  X(uint32_t, line, "line")         \
  X(uint32_t, column, "column")
// A W3C ProfilerTrace frame loaded into the core (export, import): u32
// [resource index or kNoneU32, line, column], 1-based, 0 = absent. Its
// stacks load as StackRows [frame, parent or kNoneU32] in W3C numbering.
#define WEBPROF_LOAD_FRAME_ROW(X)   \
  X(uint32_t, resource, "resource") \
  X(uint32_t, line, "line")         \
  X(uint32_t, column, "column")
// A probe trace event loaded for export: f64 [start ms, duration ms].
#define WEBPROF_TRACE_TIMES_ROW(X) \
  X(double, start, "start")        \
  X(double, duration, "duration")
// A <script> element of an HTML document (source/html_scripts.h) for the
// transform of whole documents: u32 byte offsets of its content, flags
// (HtmlScriptFlag bits), and its `src` value's range (kNoneU32 if absent).
#define WEBPROF_HTML_SCRIPT_ROW(X)   \
  X(uint32_t, begin, "begin")        \
  X(uint32_t, end, "end")            \
  X(uint32_t, flags, "flags")        \
  X(uint32_t, src_begin, "srcBegin") \
  X(uint32_t, src_end, "srcEnd")
enum HtmlScriptFlag : uint32_t {
  kHtmlJavaScript = 1,  // a classic or module script (not a data block)
  kHtmlModule = 2,
  kHtmlIntegrity = 4,  // has an `integrity` attribute
};
#define WEBPROF_HTML_SCRIPT_FLAG_LIST(X) \
  X(kHtmlJavaScript, "JavaScript")       \
  X(kHtmlModule, "Module")               \
  X(kHtmlIntegrity, "Integrity")
static_assert(HtmlScript::kNone == kNoneU32, "an absent src is kNoneU32");
// A finished probes window (f64): this header, then aggregate_count
// AggrRows, mark_count MarkRows, trace_count TraceRows.
#define WEBPROF_REPORT_HEADER(X)                     \
  X(double, generation, "generation")                \
  X(double, started_at, "startedAt")                 \
  X(double, ended_at, "endedAt")                     \
  X(double, aggregate_count, "aggregateCount")       \
  X(double, mark_count, "markCount")                 \
  X(double, marks_dropped, "marksDropped")           \
  X(double, trace_count, "traceCount")               \
  X(double, traces_dropped, "tracesDropped")         \
  X(double, traces_incomplete, "tracesIncomplete")   \
  X(double, aggregates_dropped, "aggregatesDropped") \
  X(double, names_dropped, "namesDropped")
#define WEBPROF_AGGR_ROW(X) \
  X(double, name, "name")   \
  X(double, count, "count") \
  X(double, sum, "sum")     \
  X(double, avg, "avg")     \
  X(double, max, "max")     \
  X(double, min, "min")     \
  X(double, p50, "p50")     \
  X(double, p90, "p90")     \
  X(double, p99, "p99")
// info: the glue's slot of the info object, or -1; boundary: 1 for the
// window's start/end marks.
#define WEBPROF_MARK_ROW(X)         \
  X(double, name, "name")           \
  X(double, timestamp, "timestamp") \
  X(double, info, "info")           \
  X(double, boundary, "boundary")
#define WEBPROF_TRACE_ROW(X)        \
  X(double, name, "name")           \
  X(double, timestamp, "timestamp") \
  X(double, duration, "duration")   \
  X(double, info, "info")

// Every record, (struct name, JS name, field list); bind_boundary.cpp walks it.
#define WEBPROF_BOUNDARY_RECORDS(X)                          \
  X(SampleRow, "sampleRow", WEBPROF_SAMPLE_ROW)              \
  X(DueRow, "dueRow", WEBPROF_DUE_ROW)                       \
  X(StackRow, "stackRow", WEBPROF_STACK_ROW)                 \
  X(FrameRow, "frameRow", WEBPROF_FRAME_ROW)                 \
  X(LoadFrameRow, "loadFrameRow", WEBPROF_LOAD_FRAME_ROW)    \
  X(TraceTimesRow, "traceTimesRow", WEBPROF_TRACE_TIMES_ROW) \
  X(HtmlScriptRow, "htmlScriptRow", WEBPROF_HTML_SCRIPT_ROW) \
  X(ReportHeader, "reportHeader", WEBPROF_REPORT_HEADER)     \
  X(AggrRow, "aggrRow", WEBPROF_AGGR_ROW)                    \
  X(MarkRow, "markRow", WEBPROF_MARK_ROW)                    \
  X(TraceRow, "traceRow", WEBPROF_TRACE_ROW)

#define WEBPROF_BOUNDARY_STRUCT(name, js, fields) \
  struct name {                                   \
    fields(WEBPROF_BOUNDARY_FIELD)                \
  };
WEBPROF_BOUNDARY_RECORDS(WEBPROF_BOUNDARY_STRUCT)
#undef WEBPROF_BOUNDARY_STRUCT

// The records mirror the core's own rows byte for byte where JS reads or
// writes those rows in place.
static_assert(sizeof(SampleRow) == sizeof(Sample) &&
                  offsetof(SampleRow, timestamp) ==
                      offsetof(Sample, timestamp) &&
                  offsetof(SampleRow, stack) == offsetof(Sample, stack) &&
                  offsetof(Sample, reserved) == offsetof(SampleRow, stack) + 4,
              "JS writes a Sample as f64 [timestamp, stack]; the stack's "
              "double covers Sample::stack and Sample::reserved");
static_assert(sizeof(DueRow) == sizeof(DueSample) &&
                  offsetof(DueRow, timestamp) ==
                      offsetof(DueSample, timestamp_ms) &&
                  offsetof(DueRow, mask) == offsetof(DueSample, mask),
              "JS writes a DueSample as f64 [timestamp, mask]");
static_assert(sizeof(StackRow) == sizeof(Stack) &&
                  offsetof(StackRow, frame) == offsetof(Stack, frame) &&
                  offsetof(StackRow, parent) == offsetof(Stack, parent),
              "a StackRow is a stack table row");
static_assert(sizeof(FrameRow) == sizeof(Frame) &&
                  offsetof(FrameRow, name) == offsetof(Frame, name) &&
                  offsetof(FrameRow, resource) == offsetof(Frame, resource) &&
                  offsetof(FrameRow, line) == offsetof(Frame, line) &&
                  offsetof(FrameRow, column) == offsetof(Frame, column),
              "a FrameRow is a frame table row");
// A record is read as a typed array of its one scalar type: no padding.
#define WEBPROF_BOUNDARY_ONE(type, cpp, js) +sizeof(type)
#define WEBPROF_BOUNDARY_PACKED(name, js, fields)               \
  static_assert(sizeof(name) == 0 fields(WEBPROF_BOUNDARY_ONE), \
                #name " has no padding");
WEBPROF_BOUNDARY_RECORDS(WEBPROF_BOUNDARY_PACKED)
#undef WEBPROF_BOUNDARY_PACKED
#undef WEBPROF_BOUNDARY_ONE
// Everything above as one JSON object, what JS reads as `boundary()`:
// {status: {Ok: 0, ...}, statusText: [message by code], sessionStates:
// [name by state], samplerConfig, consoleFilter, windowParts,
// htmlScriptFlags: {jsName: value}, noId, noneU32, sampleMaskBits,
// records: {sampleRow: {timestamp: 0, stack: 1, size: 2}, ...}}.
std::string DeclarationsJson();

// The built-in export formats (export/format_list.h) as JSON, [{id, key,
// name, fileStem, extension, mimeType}] in id order: what JS lists as the
// core's formats (exportFormats()) with the load-time core alone. Apart
// from DeclarationsJson, which the probes' own core carries too.
std::string ExportFormatsJson();

static_assert(sizeof(Status) == sizeof(int32_t) &&
                  sizeof(SessionState) == sizeof(int32_t),
              "statuses and states cross as int32 (JS reads HEAP32)");

}  // namespace webprof::boundary
