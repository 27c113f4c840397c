// boundary.h's declarations as one JSON object: the only form in which they
// reach JS, from either Wasm build (the page's core with embind, the probes'
// own core without), so the two cannot disagree on a name or a number.
// Written by hand: the text is a few hundred bytes of names and integers,
// and the probes' core must not link a JSON writer for it.
#include <cstdint>
#include <string>

#include "boundary/boundary.h"
#include "boundary/json_text.h"

namespace webprof::boundary {

std::string DeclarationsJson() {
  std::string out;
  Object b(&out);

  Object status(b.Key("status"));
  for (int32_t i = 0; i < static_cast<int32_t>(Status::kCount); ++i)
    status.Int(StatusName(static_cast<Status>(i)), i);
  status.Close();
  b.Key("statusText")->push_back('[');
  for (int32_t i = 0; i < static_cast<int32_t>(Status::kCount); ++i) {
    if (i) out.push_back(',');
    Str(StatusMessage(static_cast<Status>(i)), &out);
  }
  out.push_back(']');

  // Indexed by the state's value (TraceSession.state).
  const char* states[3] = {};
  static_assert(static_cast<int32_t>(SessionState::kStarted) < 3 &&
                    static_cast<int32_t>(SessionState::kPaused) < 3 &&
                    static_cast<int32_t>(SessionState::kStopped) < 3,
                "three session states, numbered from 0");
#define WEBPROF_STATE_ITEM(name, js) \
  states[static_cast<int32_t>(SessionState::name)] = js;
  WEBPROF_SESSION_STATE_NAMES(WEBPROF_STATE_ITEM)
#undef WEBPROF_STATE_ITEM
  b.Key("sessionStates")->push_back('[');
  for (int i = 0; i < 3; ++i) {
    if (i) out.push_back(',');
    Str(states[i], &out);
  }
  out.push_back(']');

  // {jsName: value} for one of boundary.h's (name, jsName) enum lists.
#define WEBPROF_JS_ENUM_ITEM(name, js) \
  e.Int(js, static_cast<int64_t>(Enum::name));
#define WEBPROF_JS_ENUM(key, Type, list) \
  {                                      \
    using Enum = Type;                   \
    Object e(b.Key(key));                \
    list(WEBPROF_JS_ENUM_ITEM);          \
    e.Close();                           \
  }
  WEBPROF_JS_ENUM("samplerConfig", SamplerConfig, WEBPROF_SAMPLER_CONFIG_LIST)
  WEBPROF_JS_ENUM("consoleFilter", ConsoleFilter, WEBPROF_CONSOLE_FILTER_LIST)
  WEBPROF_JS_ENUM("windowParts", WindowPart, WEBPROF_WINDOW_PART_LIST)
  WEBPROF_JS_ENUM("htmlScriptFlags", HtmlScriptFlag,
                  WEBPROF_HTML_SCRIPT_FLAG_LIST)
#undef WEBPROF_JS_ENUM
#undef WEBPROF_JS_ENUM_ITEM

  b.Int("noId", kNoId);
  b.Int("noneU32", kNoneU32);
  b.Int("sampleMaskBits", kSampleMaskBits);

  // Each record as {field: index in scalars, ..., size: scalars per record};
  // the records are packed arrays of one scalar type (static_asserts in
  // boundary.h), so a field's index is its offset over the scalar's size.
  Object records(b.Key("records"));
#define WEBPROF_FIELD_INDEX(type, cpp, js) \
  r.Int(js, static_cast<int64_t>(offsetof(Record, cpp) / sizeof(type)));
#define WEBPROF_FIELD_COUNT(type, cpp, js) +1
#define WEBPROF_RECORD(name, js, fields)          \
  {                                               \
    using Record = name;                          \
    Object r(records.Key(js));                    \
    fields(WEBPROF_FIELD_INDEX);                  \
    r.Int("size", 0 fields(WEBPROF_FIELD_COUNT)); \
    r.Close();                                    \
  }
  WEBPROF_BOUNDARY_RECORDS(WEBPROF_RECORD)
#undef WEBPROF_RECORD
#undef WEBPROF_FIELD_COUNT
#undef WEBPROF_FIELD_INDEX
  records.Close();
  b.Close();
  return out;
}

}  // namespace webprof::boundary
