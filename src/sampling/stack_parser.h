// Parsing `Error.stack` text into frames (V8, SpiderMonkey, JavaScriptCore):
// the dispatcher; each engine's rules are one stack_format_<engine>.cpp.
//
// The polyfill sampler's only view of the call stack is the text of
// `new Error().stack`, whose format differs per engine:
//   V8 (Chromium, Node):  "Error\n    at name (url:line:col)\n    at
//   url:line:col" SpiderMonkey:         "name@url:line:col\n@url line 3 >
//   eval:1:1\n" JavaScriptCore:       "name@url:line:col\nglobal
//   code@url:1:2\nmap@[native code]"
// ParseStack() turns one text into ParsedFrames, **innermost first** (the
// order of the text). It never allocates per frame: names and URLs are views
// into the caller's text, and the output vector is reused between calls.
//
// Spec names (W3C JS Self-Profiling: a frame's name is the function's name,
// "" for anonymous code) are derived from the engine's display text:
//  - V8 "K.m" / "Object.om" / "Array.<anonymous>" -> the part after the last
//    '.' ("m", "om", ""); "new K" -> "K"; "async f" marks an async frame;
//    " [as alias]" is dropped; "eval" code inside an eval location -> "".
//  - SpiderMonkey display names "outer/inner<" (ends in '<': anonymous) -> "",
//    "a.b/c" -> "c", "out.m" -> "m"; "async*f" marks an async frame.
//  - JSC "global code", "eval code", "module code" -> "".
//  - "get v" / "set v" (accessors) and "bound f" are kept as they are.
// An inferred name (V8 "out.f", SpiderMonkey "out.f" for `out.f =
// function(){}`) yields "f" although the function's own `name` is ""; the text
// cannot tell.
//
// Positions are the engines' 1-based line and column. A frame without a
// script (V8 "<anonymous>" / "native" / "index 0", JSC "[native code]",
// SpiderMonkey "self-hosted") has an empty url: a builtin. Eval code
// ("eval at f (url:l:c), <anonymous>:l:c" / "url line 3 > eval:l:c") has an
// empty url, its own line/column, and `script_url` = the URL of the script
// that called eval, so the CORS-muted rule can attribute it. A wasm frame
// ("wasm://wasm/hash:wasm-function[3]:0x29") keeps the module URL as url,
// line 0 (absent) and column = byte offset + 1.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace webprof {

enum class StackFormat : int32_t {
  kAuto = 0,  // detect from the text
  kV8 = 1,
  kSpiderMonkey = 2,
  kJavaScriptCore = 3,
};

struct ParsedFrame {
  std::string_view name;        // the spec name (see above), may be empty
  std::string_view url;         // the frame's resource; empty = no script
  std::string_view script_url;  // the script this code belongs to (eval: the
                                // caller's script); empty for builtins
  uint32_t line = 0;            // 1-based; 0 = absent
  uint32_t column = 0;          // 1-based; 0 = absent
  bool is_async = false;        // an awaiting caller, not on the real stack
  bool is_wasm = false;
  std::string_view raw_name;  // the engine's display text, for own-frame
                              // markers and diagnostics
};

// Detects the format of `text`: V8 if any line starts with "at " after
// indentation, JavaScriptCore if a JSC-only marker is present ("global
// code@", "[native code]", "[wasm code]"), else SpiderMonkey when some line
// has '@'; kAuto when nothing looks like a frame (e.g. an empty stack).
StackFormat DetectStackFormat(std::string_view text);

// Appends the frames of `text` to `out` (cleared first), innermost first.
// Errors: kInvalidArgument for an unknown `format`; kMalformedStack when a
// line that must be a frame (every non-empty line in SpiderMonkey/JSC text,
// every "at " line in V8 text) cannot be read — `out` then holds the frames
// before that line. Lines before V8's first "at " are the message: skipped.
Status ParseStack(std::string_view text, StackFormat format,
                  std::vector<ParsedFrame>* out);

// The spec name for an engine's display name (exposed for tests).
std::string_view SpecFrameName(std::string_view display, StackFormat format);

}  // namespace webprof
