// An open-addressing hash index over the rows of an append-only table.
//
// The table owns its rows (a vector of small structs); this index only maps a
// key's hash to row numbers, so a row is stored once and looked up without a
// linear scan. Slots hold (hash, row) pairs; equality is decided by a callback
// that compares the probe key with the row, which keeps one index type for
// every table. Linear probing, capacity a power of two, load kept <= 1/2.
#pragma once

#include <cstdint>
#include <vector>

namespace webprof {

class InternIndex {
 public:
  static constexpr uint32_t kMissing = 0xFFFFFFFFu;

  // Returns the row for which `eq(row)` holds among rows stored under `hash`,
  // or kMissing.
  template <typename Eq>
  uint32_t Find(uint64_t hash, Eq&& eq) const {
    if (slots_.empty()) return kMissing;
    const uint32_t h32 = static_cast<uint32_t>(hash);
    size_t mask = slots_.size() - 1;
    for (size_t i = h32 & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.row == kMissing) return kMissing;
      if (s.hash == h32 && eq(s.row)) return s.row;
    }
  }

  // `row` must not be in the index yet.
  void Insert(uint64_t hash, uint32_t row) {
    if ((count_ + 1) * 2 > slots_.size()) Grow();
    Place(static_cast<uint32_t>(hash), row);
    ++count_;
  }

  void Clear() {
    slots_.clear();
    count_ = 0;
  }

  size_t size() const { return count_; }
  size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    uint32_t hash;
    uint32_t row;  // kMissing marks an empty slot
  };

  void Place(uint32_t h32, uint32_t row) {
    size_t mask = slots_.size() - 1;
    size_t i = h32 & mask;
    while (slots_[i].row != kMissing) i = (i + 1) & mask;
    slots_[i] = Slot{h32, row};
  }

  void Grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{0, kMissing});
    for (const Slot& s : old)
      if (s.row != kMissing) Place(s.hash, s.row);
  }

  std::vector<Slot> slots_;
  size_t count_ = 0;
};

}  // namespace webprof
