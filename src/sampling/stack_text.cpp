#include "sampling/stack_text.h"

namespace webprof::stack_text {
namespace {

// SpiderMonkey/JSC eval: "url line 36 > eval:1:1", nested
// "url line 1 > eval line 2 > Function:3:4". The script is the first url.
bool ParseAtSignEvalLocation(sv loc, ParsedFrame* f) {
  size_t p = loc.find(" line ");
  if (p == sv::npos) return false;
  size_t gt = loc.find(" > ", p);
  if (gt == sv::npos) return false;
  uint32_t ignored;
  if (!ParseU32(loc.substr(p + 6, gt - (p + 6)), &ignored)) return false;
  f->script_url = loc.substr(0, p);
  sv tail = loc.substr(loc.rfind(" > ") + 3);  // "eval:1:1", "Function:3:8"
  if (ParseWasmLocation(tail, f)) {
    f->url = sv();  // SpiderMonkey names no module URL for wasm
    return true;
  }
  sv ignored_url;
  SplitPosition(tail, &ignored_url, &f->line, &f->column);
  f->url = sv();
  return true;
}

}  // namespace

void ParseAtSignLocation(sv loc, ParsedFrame* f) {
  if (loc.empty() || loc == "[native code]" || StartsWith(loc, "self-hosted"))
    return;  // builtin
  if (loc == "[wasm code]") {
    f->is_wasm = true;
    return;
  }
  if (ParseAtSignEvalLocation(loc, f)) return;
  if (ParseWasmLocation(loc, f)) {
    if (f->url == "<?>") f->url = sv();  // JavaScriptCore names no module
    f->script_url = f->url;
    return;
  }
  SplitPosition(loc, &f->url, &f->line, &f->column);
  f->script_url = f->url;
}

}  // namespace webprof::stack_text
