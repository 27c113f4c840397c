// Interned UTF-8 strings: function names, resource URLs, probe names.
//
// Each distinct string is stored once, in an arena of fixed-size blocks so
// that string_views handed out stay valid while the table lives (no
// realloc-and-copy of text). Rows are dense StringIds in insertion order,
// which is exactly the spec's "get an element ID" over a list of strings.
// Text is normalised to valid UTF-8 on the way in (see utf8.h).
//
// Cap: at most `max_strings` rows; past it Intern() returns None and counts a
// drop instead of growing.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/ids.h"
#include "base/intern_index.h"

namespace webprof {

class StringTable {
 public:
  static constexpr uint32_t kDefaultMaxStrings = 1u << 22;

  explicit StringTable(uint32_t max_strings = kDefaultMaxStrings)
      : max_strings_(max_strings) {}
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;
  StringTable(StringTable&&) = default;
  StringTable& operator=(StringTable&&) = default;

  // The id of `s` (after UTF-8 normalisation), appending it if new.
  StringId Intern(std::string_view s);
  // The id of `s` if present, without appending.
  StringId Find(std::string_view s) const;

  std::string_view Get(StringId id) const { return rows_[id.value]; }
  bool Contains(StringId id) const { return id.value < rows_.size(); }
  uint32_t size() const { return static_cast<uint32_t>(rows_.size()); }
  uint64_t dropped() const { return dropped_; }
  size_t memory_bytes() const;
  void Clear();

 private:
  std::string_view Store(std::string_view s);

  static constexpr size_t kBlockSize = 16 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = kBlockSize;  // forces a first block
  std::vector<std::string_view> rows_;
  InternIndex index_;
  uint32_t max_strings_;
  uint64_t dropped_ = 0;
  std::string scratch_;
};

}  // namespace webprof
