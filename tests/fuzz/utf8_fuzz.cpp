// NormalizeUtf8 always yields valid UTF-8, is the identity on valid input,
// and agrees with IsValidUtf8.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "base/utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string scratch;
  std::string_view out = webprof::NormalizeUtf8(in, &scratch);
  if (!webprof::IsValidUtf8(out)) std::abort();
  if (webprof::IsValidUtf8(in) && out != in) std::abort();
  if (!webprof::IsValidUtf8(in) && out.data() == in.data()) std::abort();
  return 0;
}
