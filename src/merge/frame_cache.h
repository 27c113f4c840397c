// The merger's memory of which merged frame an input's call frame became:
// (name, URL, line, column) as the input wrote them -> merged FrameId.
//
// Problem: a fleet's inputs sample the same few hundred functions, and each
// input names them again (a V8 profile once per node). Interning a frame
// means normalising and hashing two strings, then a frame lookup, and a
// source map lookup when one applies; the same identity text always gives
// the same merged frame while the maps stay as they are. So the merger asks
// here first, keyed by the raw text (one hash of both strings, no
// normalisation), and interns only what it has not seen. Memory: one entry
// per distinct raw frame (its text kept here), bounded as the merged tables
// are. Clear() when a source map is added (a frame may map elsewhere then).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/hash.h"
#include "base/intern_index.h"
#include "trace/profiler_trace.h"

namespace webprof {

class FrameCache {
 public:
  static constexpr uint32_t kMissing = InternIndex::kMissing;

  static uint64_t Hash(const RawFrame& raw) {
    return HashCombine(HashBytes(raw.name) ^ (HashBytes(raw.resource) << 1),
                       (uint64_t{raw.line} << 32) | raw.column);
  }
  // The merged frame cached for `raw` (hash: Hash(raw)), or kMissing.
  uint32_t Find(const RawFrame& raw, uint64_t hash) const {
    const uint32_t row = index_.Find(hash, [&](uint32_t r) {
      const Entry& e = entries_[r];
      return e.line == raw.line && e.column == raw.column &&
             Text(e.name, e.name_size) == raw.name &&
             Text(e.name + e.name_size, e.url_size) == raw.resource;
    });
    return row == kMissing ? kMissing : entries_[row].frame;
  }
  // After Find() missed: `raw` became merged frame `frame`.
  void Insert(const RawFrame& raw, uint64_t hash, uint32_t frame) {
    Entry e{static_cast<uint32_t>(text_.size()),
            static_cast<uint32_t>(raw.name.size()),
            static_cast<uint32_t>(raw.resource.size()),
            raw.line,
            raw.column,
            frame};
    text_.append(raw.name);
    text_.append(raw.resource);
    index_.Insert(hash, static_cast<uint32_t>(entries_.size()));
    entries_.push_back(e);
  }
  void Clear() {
    entries_.clear();
    text_.clear();
    index_.Clear();
  }
  size_t memory_bytes() const {
    return entries_.capacity() * sizeof(Entry) + text_.capacity() +
           index_.memory_bytes();
  }

 private:
  struct Entry {
    uint32_t name, name_size, url_size;  // name then URL at text_[name]
    uint32_t line, column, frame;
  };
  std::string_view Text(uint32_t at, uint32_t size) const {
    return std::string_view(text_.data() + at, size);
  }
  std::vector<Entry> entries_;
  std::string text_;
  InternIndex index_;
};

}  // namespace webprof
