// One entry per engine's `Error.stack` format (internal to sampling/): a new
// engine is one stack_format_<engine>.cpp defining its rules plus one row in
// kStackFormats (stack_parser.cpp). See stack_parser.h for the formats.
#pragma once

#include <string_view>
#include <vector>

#include "base/status.h"
#include "sampling/stack_parser.h"

namespace webprof {

struct StackFormatRules {
  StackFormat format;
  // True for a line only this format writes (decides detection at once);
  // null for the format chosen when no line decides (see DetectStackFormat).
  bool (*claims_line)(std::string_view line);
  Status (*parse)(std::string_view text, std::vector<ParsedFrame>* out);
  std::string_view (*spec_name)(std::string_view display);
};

extern const StackFormatRules kV8StackRules;
extern const StackFormatRules kSpiderMonkeyStackRules;
extern const StackFormatRules kJavaScriptCoreStackRules;

}  // namespace webprof
