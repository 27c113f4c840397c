// Function definitions of a script, for the spec's frame positions.
//
// Problem: a sampler that reads `Error.stack` learns where each function is
// *executing*, but a ProfilerFrame's line and column are where the function
// is *defined* - the `(` of its parameter list, as Chromium reports it - and
// frames are keyed by that definition. SourceScan reads a script's source
// once (tokens from js_tokenizer.h), lists every function definition with its
// spec name, definition position and the range it covers, and answers
// Resolve(line, column) with the innermost function containing a position.
//
// What Chromium 156 reports (verified against its native Profiler, see
// e2e/pages/fidelity/kinds.js): declarations, expressions, generators, async
// functions, methods, getters ("get x"), setters ("set x") and class
// constructors (named after the class) -> the `(` of the parameters; an arrow
// -> its `(` or, without parentheses, its parameter; an async arrow -> the
// `async` keyword. Names follow ECMAScript's function `name` as V8 knows it
// statically: a binding or property key names an anonymous function, a
// member assignment (`a.b = function(){}`) and a computed key give "".
//
// Scripts and HTML documents: ScanScript() takes one script; ScanHtml()
// takes a document and scans every inline classic or module <script>,
// offsetting positions to the document (what stacks report for inline
// scripts); an inline script that does not scan is skipped and counted.
// Limits: a source over `max_bytes` -> kSourceTooLarge, anything the
// tokenizer or scanner cannot follow -> kSourceUnscannable; never a partial
// result for a script, never a crash.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "source/js_tokenizer.h"

namespace webprof {

struct FunctionDefinition {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  std::string name;           // the spec frame name; may be empty
  SourcePosition definition;  // the position a ProfilerFrame reports
  SourcePosition begin;       // first position that belongs to the function
  SourcePosition end;         // one past its last character
  uint32_t parent = kNone;    // enclosing function (index) or kNone
  // Index of the body's `{` in the tokens FindFunctions read (meaningful
  // only with them, for probe sites); kNone for an arrow's expression body.
  uint32_t body_brace = kNone;
  // When the body starts with the sampling transform's check (a transformed
  // script), the position of its slow path (`delete`, or an older
  // check's `__wp$s()` call); line 0 otherwise.
  SourcePosition entry_check{0, 0};
  // Where JavaScriptCore places it in Error.stack: a call's `(`, the `;`
  // after `delete __wp$p.s` (V8 and SpiderMonkey: the callee's name, or
  // `delete`).
  SourcePosition entry_check_paren{0, 0};
};

struct ScanLimits {
  uint32_t max_bytes = 16u << 20;  // larger scripts are not scanned
  TokenizerLimits tokens;
};

class SourceScan {
 public:
  struct ScriptRegion {
    SourcePosition begin, end;  // [begin, end] of one scanned script
  };

  // Replaces the contents with the functions of one script whose first
  // character is at `base` (1:1 for a script file).
  Status ScanScript(std::string_view source, const ScanLimits& limits,
                    SourcePosition base = {1, 1});
  // Replaces the contents with the functions of every inline <script> of an
  // HTML document. Ok unless the document itself is over the limit.
  Status ScanHtml(std::string_view document, const ScanLimits& limits);

  // The innermost function whose range holds (line, column), or nullptr for
  // top-level code or an unknown position.
  const FunctionDefinition* Resolve(uint32_t line, uint32_t column) const;
  // For top-level code: the start of the scanned script holding (line,
  // column) - Chromium reports a script's top-level frame as "" at the
  // script's first character (1:1 for a file, just after `<script>` inline).
  // False when no scanned script holds the position.
  bool ScriptStart(uint32_t line, uint32_t column, SourcePosition* out) const;

  // True when (line, column) is the call of a function's entry check in a
  // transformed script (a stack captured there has just entered it).
  bool IsEntryCheck(uint32_t line, uint32_t column) const;

  const std::vector<FunctionDefinition>& functions() const {
    return functions_;
  }
  const std::vector<ScriptRegion>& scripts() const { return scripts_; }
  uint32_t scripts_scanned() const { return scripts_scanned_; }
  uint32_t scripts_skipped() const { return scripts_skipped_; }
  void Clear();

 private:
  Status AppendScript(std::string_view source, SourcePosition base,
                      const ScanLimits& limits);
  void Finish();       // sorts by begin and links parents
  void LinkParents();  // functions_ in Finish's order

  std::vector<ScriptRegion> scripts_;          // in document order
  std::vector<FunctionDefinition> functions_;  // sorted by begin after Finish
  std::vector<Token> tokens_;                  // scratch, reused per script
  uint32_t scripts_scanned_ = 0;
  uint32_t scripts_skipped_ = 0;
};

// Finds function definitions in tokens of `source` (the scanner's structural
// pass). Appends to `out` unsorted.
Status FindFunctions(std::string_view source, const std::vector<Token>& tokens,
                     std::vector<FunctionDefinition>* out);

}  // namespace webprof
