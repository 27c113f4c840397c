#include "symbolicate/source_map.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "base/json_cursor.h"

namespace webprof {
namespace {

constexpr std::array<int8_t, 256> MakeBase64() {
  std::array<int8_t, 256> t{};
  for (auto& v : t) v = -1;
  const char* a =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(a[i])] = int8_t(i);
  return t;
}
constexpr std::array<int8_t, 256> kBase64 = MakeBase64();
constexpr uint32_t kNone = OriginalPosition::kNone;

bool HasScheme(std::string_view u) {
  size_t i = 0;
  if (u.empty() || !std::isalpha(static_cast<unsigned char>(u[0])))
    return false;
  while (i < u.size() && (std::isalnum(static_cast<unsigned char>(u[i])) ||
                          u[i] == '+' || u[i] == '-' || u[i] == '.'))
    ++i;
  return i < u.size() && u[i] == ':';
}

// Removes "." and ".." segments from the path of `url` (after its authority).
std::string NormalizePath(std::string url, size_t path_start) {
  std::string head = url.substr(0, path_start), out;
  std::string path = url.substr(path_start), tail;
  size_t q = path.find_first_of("?#");
  if (q != std::string::npos) {
    tail = path.substr(q);
    path.resize(q);
  }
  std::vector<std::string> parts;
  size_t i = 0;
  bool absolute = !path.empty() && path[0] == '/';
  if (absolute) i = 1;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    std::string seg = path.substr(i, j - i);
    bool last = j == path.size();
    if (seg == "..") {
      if (!parts.empty()) parts.pop_back();
      if (last) parts.emplace_back();
    } else if (seg == ".") {
      if (last) parts.emplace_back();
    } else {
      parts.push_back(seg);
    }
    i = j + 1;
  }
  out = head + (absolute ? "/" : "");
  for (size_t k = 0; k < parts.size(); ++k) out += (k ? "/" : "") + parts[k];
  return out + tail;
}

}  // namespace

std::string ResolveUrl(std::string_view base, std::string_view url) {
  if (HasScheme(url) || base.empty()) return std::string(url);
  size_t colon = base.find(':');
  if (colon == std::string_view::npos) return std::string(url);
  std::string scheme(base.substr(0, colon + 1));
  if (url.substr(0, 2) == "//")
    return NormalizePath(scheme + std::string(url),
                         scheme.size() + 2 + url.substr(2).find('/'));
  size_t auth_end = colon + 1;
  if (base.substr(colon + 1, 2) == "//") {
    auth_end = base.find_first_of("/?#", colon + 3);
    if (auth_end == std::string_view::npos) auth_end = base.size();
  }
  std::string origin(base.substr(0, auth_end));
  if (!url.empty() && url[0] == '/')
    return NormalizePath(origin + std::string(url), origin.size());
  std::string_view path = base.substr(auth_end);
  path = path.substr(0, path.find_first_of("?#"));
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string_view::npos
                        ? "/"
                        : std::string(path.substr(0, slash + 1));
  return NormalizePath(origin + dir + std::string(url), origin.size());
}

// Reads one map (regular or index) into a SourceMap. Friend of SourceMap.
class SourceMapParser {
 public:
  SourceMapParser(SourceMap& m, const SourceMap::Limits& limits,
                  std::string* error)
      : m_(m), limits_(limits), error_(error) {}

  bool Run(std::string_view json, std::string_view map_url) {
    JsonCursor r(json);
    if (!ParseMap(r, map_url, 0, 0, true)) return false;
    if (!r.AtEnd()) return Fail("text after the map: " + r.error());
    m_.line_start_.push_back(static_cast<uint32_t>(m_.segments_.size()));
    return true;
  }

 private:
  bool Fail(const std::string& what) {
    if (error_->empty()) *error_ = what;
    return false;
  }

  // One map object at generated offset (line, column).
  bool ParseMap(JsonCursor& r, std::string_view map_url, uint32_t line,
                uint32_t column, bool top) {
    std::string key, scratch, mappings_copy, root;
    std::string_view s, mappings;
    bool has_mappings = false, has_sections = false;
    int64_t version = 0;
    const uint32_t source_base = static_cast<uint32_t>(m_.sources_.size());
    const uint32_t name_base = static_cast<uint32_t>(m_.names_.size());
    std::vector<std::string> raw_sources;
    std::vector<bool> null_source;
    if (!r.BeginObject()) return Fail(r.error());
    while (r.NextKey(&key)) {
      if (key == "version") {
        if (!r.Int(&version)) break;
      } else if (key == "sources") {
        if (!r.BeginArray()) break;
        while (r.NextElement()) {
          null_source.push_back(r.TakeNull());
          if (null_source.back()) {
            raw_sources.emplace_back();
          } else if (r.String(&s, &scratch)) {
            raw_sources.emplace_back(s);
          }
        }
      } else if (key == "sourceRoot") {
        if (!r.TakeNull() && r.String(&s, &scratch)) root.assign(s);
      } else if (key == "sourcesContent") {
        if (!r.BeginArray()) break;
        size_t i = 0;
        while (r.NextElement()) {
          size_t at = source_base + i++;
          if (m_.contents_.size() <= at) {
            m_.contents_.resize(at + 1);
            m_.has_content_.resize(at + 1, false);
          }
          if (!r.TakeNull() && r.String(&s, &scratch)) {
            m_.contents_[at].assign(s);
            m_.has_content_[at] = true;
          }
        }
      } else if (key == "names") {
        if (!r.BeginArray()) break;
        while (r.NextElement())
          if (r.String(&s, &scratch)) m_.names_.emplace_back(s);
      } else if (key == "mappings") {
        if (!r.String(&mappings, &mappings_copy)) break;
        if (mappings.data() == mappings_copy.data()) mappings = mappings_copy;
        has_mappings = true;
      } else if (key == "sections") {
        if (!top) return Fail("an index map's section holds another index map");
        has_sections = true;
        if (!ParseSections(r, map_url)) return false;
      } else {
        r.Skip();
      }
    }
    if (!r.ok()) return Fail(r.error());
    if (version != 3) return Fail("version must be 3");
    if (has_sections) {
      if (has_mappings) return Fail("a map has both sections and mappings");
      return true;
    }
    if (!has_mappings) return Fail("mappings is missing");
    for (size_t i = 0; i < raw_sources.size(); ++i) {
      std::string src = raw_sources[i];
      if (!root.empty() && !null_source[i] && !HasScheme(src) &&
          (src.empty() || src[0] != '/'))
        src = root + (root.back() == '/' ? "" : "/") + src;
      m_.sources_.push_back(null_source[i] ? std::string()
                                           : ResolveUrl(map_url, src));
    }
    m_.contents_.resize(m_.sources_.size());
    m_.has_content_.resize(m_.sources_.size(), false);
    return Decode(mappings, line, column, source_base, name_base);
  }

  bool ParseSections(JsonCursor& r, std::string_view map_url) {
    std::string key;
    if (!r.BeginArray()) return Fail(r.error());
    while (r.NextElement()) {
      int64_t line = -1, column = -1;
      bool has_map = false;
      if (!r.BeginObject()) return Fail(r.error());
      while (r.NextKey(&key)) {
        if (key == "offset") {
          if (!r.BeginObject()) break;
          while (r.NextKey(&key)) {
            if (key == "line") {
              r.Int(&line);
            } else if (key == "column") {
              r.Int(&column);
            } else {
              r.Skip();
            }
          }
        } else if (key == "map") {
          if (line < 0 || column < 0 || line > 0x7FFFFFFF ||
              column > 0x7FFFFFFF)
            return Fail(
                "a section's offset must come before its map and hold "
                "a line and a column >= 0");
          if (!ParseMap(r, map_url, uint32_t(line), uint32_t(column), false))
            return false;
          has_map = true;
        } else if (key == "url") {
          return Fail(
              "sections given by url are not supported (inline the map)");
        } else {
          r.Skip();
        }
      }
      if (!r.ok()) return Fail(r.error());
      if (!has_map) return Fail("a section has no map");
    }
    return r.ok() || Fail(r.error());
  }

  // Decodes `mappings` into segments; generated lines start at `line`, and
  // the first line's columns are shifted by `column`.
  bool Decode(std::string_view mappings, uint32_t line, uint32_t column,
              uint32_t source_base, uint32_t name_base) {
    auto& seg = m_.segments_;
    auto& starts = m_.line_start_;
    if (!seg.empty() && starts.size() > line + size_t{1})
      return Fail("index map sections overlap or are not in order");
    if (starts.size() == line + size_t{1} && seg.size() > starts.back() &&
        seg.back().column >= column)
      return Fail("index map sections overlap or are not in order");
    while (starts.size() <= line) starts.push_back(uint32_t(seg.size()));
    const uint32_t sources = uint32_t(m_.sources_.size()) - source_base;
    const uint32_t names = uint32_t(m_.names_.size()) - name_base;
    int64_t gen_col = 0, src = 0, oline = 0, ocol = 0, name = 0;
    size_t line_begin = seg.size();
    uint32_t col_shift = column;
    bool sorted = true;
    const char* const begin = mappings.data();
    const char* p = begin;
    const char* const end = p + mappings.size();
    auto fail_at = [&](const char* what) {
      return Fail(std::string("mappings: ") + what + " at offset " +
                  std::to_string(p - begin));
    };
    auto end_line = [&]() {
      if (!sorted)
        std::stable_sort(
            seg.begin() + line_begin, seg.end(),
            [](const SourceMap::Segment& a, const SourceMap::Segment& b) {
              return a.column < b.column;
            });
      sorted = true;
      starts.push_back(uint32_t(seg.size()));
      line_begin = seg.size();
      gen_col = 0;
      col_shift = 0;
    };
    while (p < end) {
      if (*p == ';') {
        end_line();
        ++p;
        continue;
      }
      if (*p == ',') {
        ++p;
        continue;
      }
      int64_t v[5];
      int n = 0;
      while (p < end && *p != ',' && *p != ';') {
        if (n == 5) return fail_at("a segment has more than 5 fields");
        uint64_t acc = 0;
        int shift = 0;
        for (;;) {
          if (p == end) return fail_at("a VLQ value is cut off");
          int d = kBase64[static_cast<unsigned char>(*p)];
          if (d < 0) return fail_at("invalid base64 character");
          ++p;
          if (shift > 30) return fail_at("a VLQ value is larger than 32 bits");
          acc |= uint64_t(d & 31) << shift;
          shift += 5;
          if (!(d & 32)) break;
        }
        v[n++] = acc & 1 ? -int64_t(acc >> 1) : int64_t(acc >> 1);
      }
      if (n != 1 && n != 4 && n != 5)
        return fail_at("a segment must have 1, 4 or 5 fields");
      gen_col += v[0];
      if (gen_col < 0) return fail_at("generated column < 0");
      SourceMap::Segment s{uint32_t(gen_col + col_shift), kNone, 0, 0, kNone};
      if (n >= 4) {
        src += v[1];
        oline += v[2];
        ocol += v[3];
        if (src < 0 || src >= sources)
          return fail_at("source index out of range");
        if (oline < 0 || oline > 0x7FFFFFFE || ocol < 0 || ocol > 0x7FFFFFFE)
          return fail_at("original line or column out of range");
        s.source = source_base + uint32_t(src);
        s.line = uint32_t(oline);
        s.orig_column = uint32_t(ocol);
      }
      if (n == 5) {
        name += v[4];
        if (name < 0 || name >= names)
          return fail_at("name index out of range");
        s.name = name_base + uint32_t(name);
      }
      if (gen_col + col_shift > 0x7FFFFFFE) return fail_at("column too large");
      if (seg.size() > line_begin && seg.back().column > s.column)
        sorted = false;
      if (seg.size() >= limits_.max_segments)
        return fail_at("more segments than the limit");
      seg.push_back(s);
    }
    end_line();
    starts.pop_back();  // the open line's end is pushed by the next line/Run
    return true;
  }

  SourceMap& m_;
  const SourceMap::Limits& limits_;
  std::string* error_;
};

Status SourceMap::Parse(std::string_view json, std::string_view map_url,
                        std::string* error) {
  return Parse(json, map_url, Limits{}, error);
}

Status SourceMap::Parse(std::string_view json, std::string_view map_url,
                        const Limits& limits, std::string* error) {
  Clear();
  error->clear();
  if (json.size() > limits.max_bytes) {
    *error = "the map is larger than the limit";
    return Status::kSourceMapInvalid;
  }
  SourceMapParser parser(*this, limits, error);
  if (!parser.Run(json, map_url)) {
    Clear();
    if (error->empty()) *error = "malformed";
    return Status::kSourceMapInvalid;
  }
  return Status::kOk;
}

bool SourceMap::Lookup(uint32_t line, uint32_t column,
                       OriginalPosition* out) const {
  if (line == 0 || column == 0 || line >= line_start_.size()) return false;
  const Segment* b = segments_.data() + line_start_[line - 1];
  const Segment* e = segments_.data() + line_start_[line];
  const uint32_t c = column - 1;
  if (b == e || b->column > c) return false;
  // The last segment at or before `c`, kept in [b, b + n) by a select per
  // step rather than a branch: a minified bundle is one line of ~10^6
  // segments, where std::upper_bound's mispredicted branches made lookups
  // 1.5x slower in Wasm (docs/BENCHMARKS.md, source maps).
  for (size_t n = size_t(e - b); n > 1;) {
    const size_t half = n / 2;
    b = b[half].column <= c ? b + half : b;
    n -= half;
  }
  const Segment& s = *b;
  if (s.source == kNone) return false;
  out->source = s.source;
  out->line = s.line + 1;
  out->column = s.orig_column + 1;
  out->name = s.name;
  return true;
}

void SourceMap::Clear() {
  segments_.clear();
  line_start_.clear();
  sources_.clear();
  contents_.clear();
  has_content_.clear();
  names_.clear();
}

}  // namespace webprof
