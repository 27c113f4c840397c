// Bindings for source maps: parse one map, look positions up in bulk,
// resolve a script's frames to original ones (src/symbolicate/).
//
// Ownership: JS creates a SourceMapHandle (embind) per map and must
// delete() it. The map text arrives once as UTF-8 in a buffer JS malloc()ed
// (freed by JS after parse()); positions arrive and results leave as u32
// rows in buffers JS owns, one call per batch, never one call per frame.
#include <emscripten/bind.h>

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "bind_util.h"
#include "symbolicate/source_map.h"
#include "symbolicate/symbolicator.h"

using namespace emscripten;
using namespace webprof;

namespace {

constexpr uint32_t kNone = OriginalPosition::kNone;

class SourceMapHandle {
 public:
  // The map at `map_url` (sources resolve against it); a Status.
  int32_t parse(uintptr_t text, uint32_t len, std::string map_url) {
    symbolicator_.reset();
    Status s = map_.Parse(bind::View(text, len), map_url, &error_);
    if (s == Status::kOk)
      symbolicator_ = std::make_unique<ScriptSymbolicator>(&map_);
    return int32_t(s);
  }
  std::string error() const { return error_; }
  uint32_t sourceCount() const { return uint32_t(map_.sources().size()); }
  std::string source(uint32_t i) const { return map_.sources()[i]; }
  uint32_t nameCount() const { return uint32_t(map_.names().size()); }
  std::string name(uint32_t i) const { return map_.names()[i]; }
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
  std::string resolvedNames() const { return names_; }

 private:
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

}  // namespace

EMSCRIPTEN_BINDINGS(symbolicate) {
  class_<SourceMapHandle>("SourceMapHandle")
      .constructor<>()
      .function("parse", &SourceMapHandle::parse)
      .function("error", &SourceMapHandle::error)
      .function("sourceCount", &SourceMapHandle::sourceCount)
      .function("source", &SourceMapHandle::source)
      .function("nameCount", &SourceMapHandle::nameCount)
      .function("name", &SourceMapHandle::name)
      .function("segmentCount", &SourceMapHandle::segmentCount)
      .function("lookup", &SourceMapHandle::lookup)
      .function("resolve", &SourceMapHandle::resolve)
      .function("resolvedNames", &SourceMapHandle::resolvedNames);
}
