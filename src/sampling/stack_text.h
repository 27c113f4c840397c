// The text rules every engine's `Error.stack` format shares (internal to
// sampling/): trimming, decimal positions, "url:line:col" splitting, wasm
// locations, name segments, and the "name@location" line grammar that
// SpiderMonkey and JavaScriptCore both use. Each engine's own rules live in
// its stack_format_<engine>.cpp; stack_parser.cpp dispatches between them.
//
// Inline on purpose: these run several times per frame on the per-sample
// path, and the parser profile showed call overhead when they were out of
// line.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "sampling/stack_parser.h"

namespace webprof::stack_text {

using sv = std::string_view;

// Byte loops rather than memcmp: the prefixes are a few bytes long and a
// libc call per check dominated the parse profile.
inline bool StartsWith(sv s, sv p) {
  if (s.size() < p.size()) return false;
  for (size_t i = 0; i < p.size(); ++i)
    if (s[i] != p[i]) return false;
  return true;
}
inline bool EndsWith(sv s, sv p) {
  if (s.size() < p.size()) return false;
  size_t off = s.size() - p.size();
  for (size_t i = 0; i < p.size(); ++i)
    if (s[off + i] != p[i]) return false;
  return true;
}
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

inline sv TrimLeft(sv s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}
inline sv TrimRight(sv s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' '))
    s.remove_suffix(1);
  return s;
}

// Decimal digits -> uint32; false on empty input, a non-digit or overflow.
inline bool ParseU32(sv s, uint32_t* out) {
  if (s.empty() || s.size() > 10) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > 0xFFFFFFFFull) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

// Splits a trailing ":digits" off `*s` into `*n`; false (nothing changed)
// when `*s` does not end that way.
inline bool SplitTrailingNumber(sv* s, uint32_t* n) {
  size_t colon = s->rfind(':');
  if (colon == sv::npos) return false;
  if (!ParseU32(s->substr(colon + 1), n)) return false;
  *s = s->substr(0, colon);
  return true;
}

// "url:line:col", "url:line" or "url" -> parts. Scheme and port colons stay in
// the url because only trailing all-digit groups are taken, right to left.
inline void SplitPosition(sv loc, sv* url, uint32_t* line, uint32_t* column) {
  uint32_t a = 0, b = 0;
  sv rest = loc;
  if (SplitTrailingNumber(&rest, &b)) {
    sv rest2 = rest;
    if (SplitTrailingNumber(&rest2, &a) && !rest2.empty()) {
      *url = rest2;
      *line = a;
      *column = a == 0 ? 0 : b;  // 1-based: no line means no position
      return;
    }
    // "url:<too many digits>:2" is not "url:<digits>" at line 2.
    size_t colon = rest.rfind(':');
    bool digits_overflow = colon != sv::npos && colon + 1 < rest.size();
    for (size_t i = colon + 1; digits_overflow && i < rest.size(); ++i)
      digits_overflow = IsDigit(rest[i]);
    if (!rest.empty() && !digits_overflow) {
      *url = rest;
      *line = b;
      *column = 0;
      return;
    }
  }
  *url = loc;
  *line = 0;
  *column = 0;
}

// "...:wasm-function[3]:0x29" -> url (before the marker), column = offset+1;
// false (nothing changed) when `loc` is not a wasm location.
inline bool ParseWasmLocation(sv loc, ParsedFrame* f) {
  constexpr sv kMarker = ":wasm-function[";
  // URLs rarely hold '[': a memchr rejects the common case cheaply.
  size_t bracket = loc.find('[');
  if (bracket == sv::npos || bracket + 1 < kMarker.size()) return false;
  size_t m = bracket + 1 - kMarker.size();
  if (!StartsWith(loc.substr(m), kMarker)) return false;
  f->is_wasm = true;
  f->url = loc.substr(0, m);
  size_t hex = loc.find(":0x", m);
  if (hex != sv::npos) {
    uint64_t off = 0;
    sv digits = loc.substr(hex + 3);
    bool ok = !digits.empty() && digits.size() <= 8;
    for (char c : digits) {
      int d = IsDigit(c)               ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) ok = false;
      off = off * 16 + static_cast<uint64_t>(d < 0 ? 0 : d);
    }
    if (ok && off + 1 <= 0xFFFFFFFFull)
      f->column = static_cast<uint32_t>(off + 1);
  }
  return true;
}

// "[Symbol.iterator]" at the end of a name is one segment.
inline sv LastSegment(sv name, char sep) {
  if (EndsWith(name, "]")) {
    size_t open = name.rfind('[');
    if (open != sv::npos) return name.substr(open);
  }
  size_t p = name.rfind(sep);
  return p == sv::npos ? name : name.substr(p + 1);
}

inline bool IsAccessorOrBound(sv n) {
  return StartsWith(n, "get ") || StartsWith(n, "set ") ||
         StartsWith(n, "bound ");
}

// One "name@location" location -> url/line/column/script (builtins, eval,
// wasm as SpiderMonkey and JavaScriptCore write them).
void ParseAtSignLocation(sv loc, ParsedFrame* f);

// The "name@location" grammar (one frame per non-empty line; "*" marks the
// first frame past an async boundary, every later frame is async too).
// `SpecName` is the engine's display-name rule (a template argument so it
// inlines into the per-frame loop).
template <sv (*SpecName)(sv)>
Status ParseAtSignLines(sv text, std::vector<ParsedFrame>* out) {
  bool async_seen = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == sv::npos) nl = text.size();
    sv line = TrimRight(text.substr(pos, nl - pos));
    pos = nl + 1;
    if (line.empty()) continue;
    ParsedFrame f;
    size_t at = line.find('@');
    sv loc;
    if (at == sv::npos) {
      // JSC prints bare locations for some anonymous frames.
      if (line != "[native code]" && line.find(':') == sv::npos)
        return Status::kMalformedStack;
      loc = line;
    } else {
      f.raw_name = line.substr(0, at);
      loc = line.substr(at + 1);
    }
    // SpiderMonkey marks the first frame past an async boundary
    // "async*name" (or "<cause>*name"); every later frame is async too.
    size_t star = f.raw_name.find('*');
    if (star != sv::npos) {
      async_seen = true;
      f.raw_name = f.raw_name.substr(star + 1);
    }
    f.is_async = async_seen;
    ParseAtSignLocation(loc, &f);
    f.name = f.is_wasm ? f.raw_name : SpecName(f.raw_name);
    out->push_back(f);
  }
  return Status::kOk;
}

}  // namespace webprof::stack_text
