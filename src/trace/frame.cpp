#include "trace/frame.h"

#include "base/hash.h"

namespace webprof {

FrameId FrameTable::Intern(const Frame& f) {
  uint64_t h = HashCombine(HashCombine(f.name.value, f.resource.value),
                           (static_cast<uint64_t>(f.line) << 32) | f.column);
  uint32_t row = index_.Find(h, [&](uint32_t r) {
    const Frame& o = rows_[r];
    return o.name == f.name && o.resource == f.resource && o.line == f.line &&
           o.column == f.column;
  });
  if (row != InternIndex::kMissing) return FrameId(row);
  if (rows_.size() >= max_frames_) {
    ++dropped_;
    return FrameId::None();
  }
  uint32_t id = static_cast<uint32_t>(rows_.size());
  rows_.push_back(f);
  index_.Insert(h, id);
  return FrameId(id);
}

}  // namespace webprof
