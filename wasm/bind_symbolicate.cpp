// Bindings for source maps: parse one map, look positions up in bulk,
// resolve a script's frames to original ones (src/symbolicate/).
//
// Ownership: JS creates a SourceMapHandle (wp_source_map_new) per map and must
// delete() it. The map text arrives once as UTF-8 in a buffer JS malloc()ed
// (freed by JS after parse()); positions arrive and results leave as u32
// rows in buffers JS owns, one call per batch, never one call per frame.
#include <emscripten/emscripten.h>

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "bind_util.h"
#include "symbolicate/source_map.h"
#include "symbolicate/symbolicator.h"

using namespace webprof;

namespace {

constexpr uint32_t kNone = OriginalPosition::kNone;

class SourceMapHandle {
 public:
  // The map at `map_url` (sources resolve against it); a Status.
  // `map_url` is UTF-8 at url/url_len (the scratch buffer).
  int32_t parse(uintptr_t text, uint32_t len, uintptr_t url, uint32_t url_len) {
    symbolicator_.reset();
    Status s = map_.Parse(bind::View(text, len),
                          std::string(bind::View(url, url_len)), &error_);
    if (s == Status::kOk)
      symbolicator_ = std::make_unique<ScriptSymbolicator>(&map_);
    return int32_t(s);
  }
  void error() const { bind::SetResult(error_.data(), error_.size()); }
  uint32_t sourceCount() const { return uint32_t(map_.sources().size()); }
  void source(uint32_t i) const { Text(map_.sources(), i); }
  uint32_t nameCount() const { return uint32_t(map_.names().size()); }
  void name(uint32_t i) const { Text(map_.names(), i); }
  double segmentCount() const { return double(map_.segment_count()); }

  // `n` rows [line, column] (1-based) at `in` -> rows [source, line, column,
  // name] at `out` (kNone source: unmapped; kNone name: none).
  void lookup(uintptr_t in, uint32_t n, uintptr_t out) const {
    const uint32_t* p = reinterpret_cast<const uint32_t*>(in);
    uint32_t* o = reinterpret_cast<uint32_t*>(out);
    for (uint32_t i = 0; i < n; ++i, p += 2, o += 4) {
      OriginalPosition pos;
      if (!map_.Lookup(p[0], p[1], &pos)) pos = OriginalPosition{};
      o[0] = pos.source;
      o[1] = pos.line;
      o[2] = pos.column;
      o[3] = pos.name;
    }
  }

  // Frames: `n` rows [line, column] -> rows [source, line, column, name]
  // where name indexes resolvedNames() (kNone: keep the generated name).
  void resolve(uintptr_t in, uint32_t n, uintptr_t out) {
    names_.clear();
    name_ids_.clear();
    const uint32_t* p = reinterpret_cast<const uint32_t*>(in);
    uint32_t* o = reinterpret_cast<uint32_t*>(out);
    for (uint32_t i = 0; i < n; ++i, p += 2, o += 4) {
      OriginalFrame f;
      if (!symbolicator_ || !symbolicator_->Resolve(p[0], p[1], &f)) {
        o[0] = kNone;
        o[1] = o[2] = 0;
        o[3] = kNone;
        continue;
      }
      o[0] = f.source;
      o[1] = f.line;
      o[2] = f.column;
      o[3] = f.has_name ? NameId(f.name) : kNone;
    }
  }
  // The names resolve() used, '\0'-joined in id order.
  void resolvedNames() const { bind::SetResult(names_.data(), names_.size()); }

 private:
  template <typename List>
  static void Text(const List& list, uint32_t i) {
    std::string_view s =
        i < list.size() ? std::string_view(list[i]) : std::string_view();
    bind::SetResult(s.data(), s.size());
  }

  uint32_t NameId(std::string_view name) {
    auto it = name_ids_.find(name);
    if (it != name_ids_.end()) return it->second;
    uint32_t id = uint32_t(name_ids_.size());
    name_ids_.emplace(name, id);
    names_.append(name.data(), name.size());
    names_.push_back('\0');
    return id;
  }

  SourceMap map_;
  std::string error_;
  std::unique_ptr<ScriptSymbolicator> symbolicator_;
  std::string names_;
  // Views into the map's strings or the symbolicator's scans (both live as
  // long as this handle).
  std::unordered_map<std::string_view, uint32_t> name_ids_;
};

SourceMapHandle* At(uintptr_t p) {
  return reinterpret_cast<SourceMapHandle*>(p);
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE uintptr_t wp_source_map_new() {
  return reinterpret_cast<uintptr_t>(new SourceMapHandle());
}
EMSCRIPTEN_KEEPALIVE void wp_source_map_delete(uintptr_t p) { delete At(p); }
EMSCRIPTEN_KEEPALIVE int32_t wp_source_map_parse(uintptr_t p, uintptr_t text,
                                                 uint32_t len, uintptr_t url,
                                                 uint32_t url_len) {
  return At(p)->parse(text, len, url, url_len);
}
EMSCRIPTEN_KEEPALIVE void wp_source_map_error(uintptr_t p) { At(p)->error(); }
EMSCRIPTEN_KEEPALIVE uint32_t wp_source_map_source_count(uintptr_t p) {
  return At(p)->sourceCount();
}
EMSCRIPTEN_KEEPALIVE void wp_source_map_source(uintptr_t p, uint32_t i) {
  At(p)->source(i);
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_source_map_name_count(uintptr_t p) {
  return At(p)->nameCount();
}
EMSCRIPTEN_KEEPALIVE void wp_source_map_name(uintptr_t p, uint32_t i) {
  At(p)->name(i);
}
EMSCRIPTEN_KEEPALIVE double wp_source_map_segment_count(uintptr_t p) {
  return At(p)->segmentCount();
}
EMSCRIPTEN_KEEPALIVE void wp_source_map_lookup(uintptr_t p, uintptr_t in,
                                               uint32_t n, uintptr_t out) {
  At(p)->lookup(in, n, out);
}
EMSCRIPTEN_KEEPALIVE void wp_source_map_resolve(uintptr_t p, uintptr_t in,
                                                uint32_t n, uintptr_t out) {
  At(p)->resolve(in, n, out);
}
EMSCRIPTEN_KEEPALIVE void wp_source_map_resolved_names(uintptr_t p) {
  At(p)->resolvedNames();
}

}  // extern "C"
