// The one list of error conditions the core can report.
//
// C++ returns a Status; the Wasm layer exposes StatusMessage() so JS builds
// its Error messages from this table instead of keeping a copy of it.
#pragma once

#include <cstdint>

namespace webprof {

#define WEBPROF_STATUS_LIST(X)                                               \
  X(kOk, "ok")                                                               \
  X(kInvalidTimestamp, "timestamp must be a finite number >= 0 (ms)")        \
  X(kTimestampOutOfOrder, "timestamp is earlier than the previous sample's") \
  X(kUnknownStack, "stackId does not name a stack of this trace")            \
  X(kUnknownFrame, "frameId does not name a frame of this trace")            \
  X(kUnknownResource, "resourceId does not name a resource of this trace")   \
  X(kUnknownParent, "parentId does not name a stack of this trace")          \
  X(kParentNotBefore,                                                        \
    "a stack's parentId must name an earlier stack (it names the stack "     \
    "itself or a later one: a cycle or a forward reference)")                \
  X(kBufferFull, "the sample buffer is full (maxBufferSize reached)")        \
  X(kStopped, "the profiling session is stopped")                            \
  X(kPaused, "the profiling session is paused")                              \
  X(kTableFull, "an interning table reached its cap; the entry was dropped") \
  X(kInvalidArgument, "invalid argument")                                    \
  X(kNotRecording, "no probe recording window is open (call start first)")   \
  X(kInvalidSortKey,                                                         \
    "sortBy must be one of count, sum, avg, max, min, p50, p90, p99, name")  \
  X(kMalformedStack, "a line of the Error.stack text is not a stack frame")  \
  X(kUnclassifiedScript,                                                     \
    "the stack holds a script not yet classified as CORS-muted or not")      \
  X(kSourceTooLarge, "the script is larger than the source scanner's limit") \
  X(kSourceUnscannable,                                                      \
    "the script could not be scanned (malformed or unsupported syntax)")     \
  X(kTrapped,                                                                \
    "the Wasm core trapped or aborted earlier; this instance is unusable "   \
    "(boundary/health.h)")                                                   \
  X(kSourceMapInvalid, "the source map is malformed (the error says where)") \
  X(kMalformedProfile,                                                       \
    "the profile is malformed or truncated (not the format it claims)")      \
  X(kNoProfileThread, "the profile holds no thread of the page")

enum class Status : int32_t {
#define WEBPROF_STATUS_ENUM(name, msg) name,
  WEBPROF_STATUS_LIST(WEBPROF_STATUS_ENUM)
#undef WEBPROF_STATUS_ENUM
      kCount
};

// A short English sentence describing `s`; never null.
const char* StatusMessage(Status s);
// The enumerator's name without the leading k, e.g. "BufferFull".
const char* StatusName(Status s);

}  // namespace webprof
