#include "base/utf8.h"

#include <cstdint>
#include <cstring>

namespace webprof {
namespace {

// Length of the valid sequence starting at s[i], or 0 when invalid. On an
// invalid sequence *bad_len is the length of its maximal valid prefix (>= 1),
// which is replaced by one U+FFFD.
size_t ValidSequence(const unsigned char* s, size_t n, size_t i,
                     size_t* bad_len) {
  unsigned char c = s[i];
  *bad_len = 1;
  if (c < 0x80) return 1;
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;  // excludes surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  for (size_t k = 1; k <= need; ++k) {
    if (i + k >= n) return 0;
    unsigned char b = s[i + k];
    unsigned char l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
    if (b < l || b > h) return 0;
    *bad_len = k + 1;
  }
  return need + 1;
}

}  // namespace

bool IsValidUtf8(std::string_view sv) {
  auto* s = reinterpret_cast<const unsigned char*>(sv.data());
  size_t n = sv.size(), i = 0, bad;
  // Names and URLs are nearly always ASCII: skip 8 bytes at a time while no
  // byte has its high bit set.
  while (i + 8 <= n) {
    uint64_t w;
    std::memcpy(&w, s + i, 8);
    if (w & 0x8080808080808080ull) break;
    i += 8;
  }
  while (i < n) {
    if (s[i] < 0x80) {
      ++i;
      continue;
    }
    size_t len = ValidSequence(s, n, i, &bad);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string_view NormalizeUtf8(std::string_view sv, std::string* scratch) {
  if (IsValidUtf8(sv)) return sv;
  auto* s = reinterpret_cast<const unsigned char*>(sv.data());
  size_t n = sv.size(), i = 0, bad;
  scratch->clear();
  scratch->reserve(n + 8);
  while (i < n) {
    size_t len = ValidSequence(s, n, i, &bad);
    if (len) {
      scratch->append(sv.data() + i, len);
      i += len;
    } else {
      // A lead byte whose continuation is missing consumes only what was
      // valid so far (the "maximal subpart"), never a following good byte.
      scratch->append("\xEF\xBF\xBD");
      i += bad;
    }
  }
  return *scratch;
}

}  // namespace webprof
