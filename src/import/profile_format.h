// Which profile format a text is: the one dispatcher over the importers'
// sniffs (after speedscope's src/import/index.ts). Each importer's own
// sniff looks at the first member only (what its writers put first); when
// none claims the text, the object's top-level members are read (values
// skipped) until one decides: "traceEvents" (Chrome trace), "nodes"
// (.cpuprofile), "frames"/"stacks"/"resources" (W3C trace), "meta" with
// "threads" (Gecko profile).
#pragma once

#include <string_view>

namespace webprof {

#define WEBPROF_PROFILE_FORMAT_LIST(X)   \
  X(kUnknown, "unknown")                 \
  X(kW3CTrace, "W3C ProfilerTrace JSON") \
  X(kChromeTrace, "Chrome trace JSON")   \
  X(kCpuProfile, ".cpuprofile")          \
  X(kGeckoProfile, "Firefox Gecko profile JSON")

enum class ProfileFormat {
#define WEBPROF_PROFILE_FORMAT_ENUM(name, text) name,
  WEBPROF_PROFILE_FORMAT_LIST(WEBPROF_PROFILE_FORMAT_ENUM)
#undef WEBPROF_PROFILE_FORMAT_ENUM
};

ProfileFormat DetectProfileFormat(std::string_view text);
// For people: ".cpuprofile", "Chrome trace JSON", ...; never null.
const char* ProfileFormatName(ProfileFormat f);

}  // namespace webprof
