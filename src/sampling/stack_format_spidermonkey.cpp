// SpiderMonkey (Firefox): "name@url:line:col", "@url line 3 > eval:1:1",
// "self-hosted" builtins. Display names nest with '/' ("outer/inner"), end in
// '<' when the function is anonymous ("outer/<"), and "async*f" marks the
// first frame past an async boundary.
#include "sampling/stack_formats.h"
#include "sampling/stack_text.h"

namespace webprof {
namespace {

using namespace stack_text;

sv SpecName(sv n) {
  if (EndsWith(n, "<")) return sv();
  n = LastSegment(n, '/');
  if (!IsAccessorOrBound(n)) n = LastSegment(n, '.');
  return n;
}

Status Parse(sv text, std::vector<ParsedFrame>* out) {
  return ParseAtSignLines<SpecName>(text, out);
}

}  // namespace

// No line is SpiderMonkey's alone: it is the "name@location" text that is
// neither V8 nor JavaScriptCore.
const StackFormatRules kSpiderMonkeyStackRules = {StackFormat::kSpiderMonkey,
                                                  nullptr, Parse, SpecName};

}  // namespace webprof
