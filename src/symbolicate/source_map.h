// SourceMap: a Source Map Revision 3 decoder (https://tc39.es/ecma426/) and
// the generated -> original lookup.
//
// Problem: profiles of production code name minified functions at bundle
// positions; the bundle's source map says where each generated position
// came from. Decoding must be fast on multi-megabyte maps (one per bundle,
// decoded at stop() in the page) and must reject a malformed map with a
// message that names what is wrong, without crashing or half-decoding.
//
// Design: Parse() reads the JSON once (json_reader.h; `mappings` is never
// copied) and decodes the Base64 VLQ `mappings` straight into one flat array
// of 20-byte segments sorted by (generated line, column), plus a per-line
// index into it, so Lookup() is one binary search within a line. An index
// map (`sections`) is flattened into the same arrays: each section's
// sources and names are appended and its segments shifted by its offset, so
// lookups never know sections existed. Sections given by `url` (not inline)
// are an error: fetching is the caller's job.
// Units: the format is 0-based; everything this class returns is 1-based
// (the core's numbering), converted here once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace webprof {

struct OriginalPosition {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  uint32_t source = kNone;  // index into sources(); kNone = unmapped
  uint32_t line = 0;        // 1-based
  uint32_t column = 0;      // 1-based
  uint32_t name = kNone;    // index into names(), or kNone
};

class SourceMap {
 public:
  // Limits on hostile input: larger maps or more segments are refused.
  struct Limits {
    size_t max_bytes = size_t{256} << 20;
    size_t max_segments = size_t{1} << 27;
  };

  // Replaces the contents with the map in `json`. `map_url` resolves
  // sources (with sourceRoot) to absolute URLs when they are relative; empty
  // keeps them as written. On failure the map is empty, the status is
  // kSourceMapInvalid and *error says what (with a byte offset).
  Status Parse(std::string_view json, std::string_view map_url,
               std::string* error);
  Status Parse(std::string_view json, std::string_view map_url,
               const Limits& limits, std::string* error);

  // The segment covering generated (line, column), 1-based: the last one at
  // or before `column` on `line` (as source-map's GREATEST_LOWER_BOUND);
  // false when there is none or it maps to no source.
  bool Lookup(uint32_t line, uint32_t column, OriginalPosition* out) const;

  const std::vector<std::string>& sources() const { return sources_; }
  // Parallel to sources(); empty when the map has no content for it
  // (has_content() tells an empty file from a missing one).
  const std::string& content(uint32_t source) const {
    return contents_[source];
  }
  bool has_content(uint32_t source) const { return has_content_[source]; }
  const std::vector<std::string>& names() const { return names_; }
  size_t segment_count() const { return segments_.size(); }
  void Clear();

 private:
  struct Segment {
    uint32_t column;  // generated, 0-based
    uint32_t source;  // kNone: a generated-only segment
    uint32_t line;    // original, 0-based
    uint32_t orig_column;
    uint32_t name;
  };
  static_assert(sizeof(Segment) == 20, "segments are packed 5 x u32");

  friend class SourceMapParser;
  std::vector<Segment> segments_;     // by (generated line, column)
  std::vector<uint32_t> line_start_;  // generated line -> first segment; +1 end
  std::vector<std::string> sources_;
  std::vector<std::string> contents_;
  std::vector<bool> has_content_;
  std::vector<std::string> names_;
};

// `url` resolved against `base` (RFC 3986 reference resolution for the
// shapes source maps use: absolute URLs, scheme-relative, root-relative,
// relative paths with . and ..). Exposed for tests.
std::string ResolveUrl(std::string_view base, std::string_view url);

}  // namespace webprof
