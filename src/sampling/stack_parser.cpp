#include "sampling/stack_parser.h"

#include "sampling/stack_formats.h"

namespace webprof {
namespace {

using sv = std::string_view;

// Detection order: formats whose lines are decisive first; the fallback
// (claims_line == null) last.
const StackFormatRules* const kStackFormats[] = {
    &kV8StackRules, &kJavaScriptCoreStackRules, &kSpiderMonkeyStackRules};

const StackFormatRules* RulesFor(StackFormat format) {
  for (const StackFormatRules* r : kStackFormats)
    if (r->format == format) return r;
  return nullptr;
}

}  // namespace

std::string_view SpecFrameName(std::string_view n, StackFormat format) {
  const StackFormatRules* r = RulesFor(format);
  return r ? r->spec_name(n) : n;
}

StackFormat DetectStackFormat(std::string_view text) {
  bool any_at_sign = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == sv::npos) nl = text.size();
    sv line = text.substr(pos, nl - pos);
    pos = nl + 1;
    for (const StackFormatRules* r : kStackFormats)
      if (r->claims_line && r->claims_line(line)) return r->format;
    if (line.find('@') != sv::npos) any_at_sign = true;
  }
  return any_at_sign ? StackFormat::kSpiderMonkey : StackFormat::kAuto;
}

Status ParseStack(std::string_view text, StackFormat format,
                  std::vector<ParsedFrame>* out) {
  out->clear();
  if (format == StackFormat::kAuto) {
    format = DetectStackFormat(text);
    if (format == StackFormat::kAuto) return Status::kOk;  // no frames
  }
  const StackFormatRules* r = RulesFor(format);
  return r ? r->parse(text, out) : Status::kInvalidArgument;
}

}  // namespace webprof
