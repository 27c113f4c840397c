// JavaScriptCore (Safari, WebKitGTK): "name@url:line:col", "global code@url",
// "map@[native code]", bare "url:line:col" for some anonymous frames. Names
// are the function's own; "global code", "eval code", "module code" are the
// top level (spec name "").
#include "sampling/stack_formats.h"
#include "sampling/stack_text.h"

namespace webprof {
namespace {

using namespace stack_text;

sv SpecName(sv n) {
  if (n == "global code" || n == "eval code" || n == "module code") return sv();
  return n;
}

bool ClaimsLine(sv line) {
  return StartsWith(line, "global code@") || StartsWith(line, "eval code@") ||
         StartsWith(line, "module code@") ||
         EndsWith(TrimRight(line), "@[native code]") ||
         EndsWith(TrimRight(line), "@[wasm code]");
}

Status Parse(sv text, std::vector<ParsedFrame>* out) {
  return ParseAtSignLines<SpecName>(text, out);
}

}  // namespace

const StackFormatRules kJavaScriptCoreStackRules = {
    StackFormat::kJavaScriptCore, ClaimsLine, Parse, SpecName};

}  // namespace webprof
