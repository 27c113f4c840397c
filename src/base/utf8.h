// UTF-8 validation and the core's one normalisation rule for text.
//
// Strings reach the core from JS (function names, URLs, probe names). A JS
// string may hold lone surrogates, which Emscripten encodes as the 3-byte
// WTF-8 forms ED A0..BF xx; bytes can also simply be invalid. The core stores
// only valid UTF-8: every maximal invalid subsequence becomes U+FFFD, as the
// WHATWG decoder does, so exporters never emit bytes a consumer rejects.
#pragma once

#include <string>
#include <string_view>

namespace webprof {

// True when `s` is well-formed UTF-8 (no surrogates, no overlongs, <=
// U+10FFFF).
bool IsValidUtf8(std::string_view s);

// Returns `s` unchanged if valid; otherwise writes the normalised text into
// `*scratch` and returns a view of it.
std::string_view NormalizeUtf8(std::string_view s, std::string* scratch);

}  // namespace webprof
