#include "trace/string_table.h"

#include <cstring>

#include "base/hash.h"
#include "base/utf8.h"

namespace webprof {

StringId StringTable::Find(std::string_view s) const {
  uint64_t h = HashBytes(s);
  uint32_t row = index_.Find(h, [&](uint32_t r) { return rows_[r] == s; });
  return row == InternIndex::kMissing ? StringId::None() : StringId(row);
}

StringId StringTable::Intern(std::string_view raw) {
  std::string_view s = NormalizeUtf8(raw, &scratch_);
  uint64_t h = HashBytes(s);
  uint32_t row = index_.Find(h, [&](uint32_t r) { return rows_[r] == s; });
  if (row != InternIndex::kMissing) return StringId(row);
  if (rows_.size() >= max_strings_) {
    ++dropped_;
    return StringId::None();
  }
  uint32_t id = static_cast<uint32_t>(rows_.size());
  rows_.push_back(Store(s));
  index_.Insert(h, id);
  return StringId(id);
}

std::string_view StringTable::Store(std::string_view s) {
  if (s.empty()) return std::string_view();
  if (s.size() > kBlockSize / 4) {
    // Large strings get a block of their own so they do not waste the tail of
    // a shared block.
    auto block = std::make_unique<char[]>(s.size());
    std::memcpy(block.get(), s.data(), s.size());
    std::string_view out(block.get(), s.size());
    // Keep the current shared block last so block_used_ still refers to it.
    blocks_.insert(blocks_.empty() ? blocks_.end() : blocks_.end() - 1,
                   std::move(block));
    return out;
  }
  if (block_used_ + s.size() > kBlockSize) {
    blocks_.push_back(std::make_unique<char[]>(kBlockSize));
    block_used_ = 0;
  }
  char* dst = blocks_.back().get() + block_used_;
  std::memcpy(dst, s.data(), s.size());
  block_used_ += s.size();
  return std::string_view(dst, s.size());
}

size_t StringTable::memory_bytes() const {
  return blocks_.size() * kBlockSize + rows_.capacity() * sizeof(rows_[0]) +
         index_.memory_bytes();
}

void StringTable::Clear() {
  blocks_.clear();
  block_used_ = kBlockSize;
  rows_.clear();
  index_.Clear();
  dropped_ = 0;
}

}  // namespace webprof
