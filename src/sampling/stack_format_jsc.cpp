// JavaScriptCore (Safari, WebKitGTK): "name@url:line:col", "@url:line:col"
// for anonymous functions, "global code@url", "module code@url",
// "eval code@" (no location), "map@[native code]", "anonymous@" for new
// Function code, wasm as "index@<?>:wasm-function[index]" (captured from
// WebKitGTK 2.50, tests/fixtures/stacks/jsc-webkit/). Names are the
// function's own `name`: a getter or setter is just "v" (the scanner gives the
// spec's "get v"). URLs come without their query and fragment. Text with none
// of the lines claimed here reads the same under SpiderMonkey's rules.
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
         EndsWith(TrimRight(line), "@[wasm code]") ||
         line.find("@<?>:wasm-function[") != sv::npos;
}

Status Parse(sv text, std::vector<ParsedFrame>* out) {
  return ParseAtSignLines<SpecName>(text, out);
}

}  // namespace

const StackFormatRules kJavaScriptCoreStackRules = {
    StackFormat::kJavaScriptCore, ClaimsLine, Parse, SpecName};

}  // namespace webprof
