#include "import/profile_format.h"

#include <string>

#include "base/json_cursor.h"
#include "import/chrome_trace.h"
#include "import/cpuprofile.h"
#include "import/gecko_profile.h"
#include "import/w3c_trace.h"

namespace webprof {

ProfileFormat DetectProfileFormat(std::string_view text) {
  if (IsCpuProfile(text)) return ProfileFormat::kCpuProfile;
  if (IsChromeTrace(text)) return ProfileFormat::kChromeTrace;
  if (IsW3CTrace(text)) return ProfileFormat::kW3CTrace;
  if (IsGeckoProfile(text)) return ProfileFormat::kGeckoProfile;
  JsonCursor c(text);
  if (!c.BeginObject()) return ProfileFormat::kUnknown;
  std::string key;
  bool meta = false, threads = false;
  while (c.NextKey(&key)) {
    if (key == "traceEvents") return ProfileFormat::kChromeTrace;
    if (key == "nodes") return ProfileFormat::kCpuProfile;
    if (key == "frames" || key == "stacks" || key == "resources")
      return ProfileFormat::kW3CTrace;
    meta |= key == "meta";
    threads |= key == "threads";
    if (meta && threads) return ProfileFormat::kGeckoProfile;
    if (!c.Skip()) break;
  }
  return ProfileFormat::kUnknown;
}

const char* ProfileFormatName(ProfileFormat f) {
  switch (f) {
#define WEBPROF_PROFILE_FORMAT_CASE(name, text) \
  case ProfileFormat::name:                     \
    return text;
    WEBPROF_PROFILE_FORMAT_LIST(WEBPROF_PROFILE_FORMAT_CASE)
#undef WEBPROF_PROFILE_FORMAT_CASE
  }
  return "unknown";
}

}  // namespace webprof
