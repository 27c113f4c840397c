// ProfilerSample storage: (timestamp, optional stackId), 16 bytes each.
//
// Samples are the one table that grows with time rather than with code size,
// so they live in fixed-size chunks: appending never copies earlier samples
// and retained memory stays at 16 bytes per sample plus one partly filled
// chunk (a doubling vector could hold up to 2x). Timestamps are milliseconds
// relative to the session's time origin, as DOMHighResTimeStamp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "base/ids.h"
#include "base/stable_sort.h"

namespace webprof {

struct Sample {
  double timestamp;  // ms since the session's time origin; finite, >= 0
  StackId stack;     // None = no JS on the stack (idle, GC, hidden frames)
  uint32_t reserved = 0;
};
static_assert(sizeof(Sample) <= 16, "retained memory per sample <= 16 bytes");

class SampleBuffer {
 public:
  static constexpr size_t kChunkSamples = 4096;

  void Append(const Sample& s) {
    if (size_ % kChunkSamples == 0) AddChunk();
    chunks_.back()[size_ % kChunkSamples] = s;
    ++size_;
  }
  const Sample& operator[](size_t i) const {
    return chunks_[i / kChunkSamples][i % kChunkSamples];
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Sample& back() const { return (*this)[size_ - 1]; }
  // Sets the stack of sample i < size() (a sample whose stack was deferred).
  void SetStack(size_t i, StackId stack) {
    chunks_[i / kChunkSamples][i % kChunkSamples].stack = stack;
  }
  size_t memory_bytes() const {
    return chunks_.size() * kChunkSamples * sizeof(Sample) +
           chunks_.capacity() * sizeof(chunks_[0]);
  }
  void Clear() {
    chunks_.clear();
    size_ = 0;
  }

  // Bulk append for loaders that fill rows in place: grows by up to `n`
  // samples that are contiguous in memory (the rest of the last chunk, or a
  // new chunk) and returns them; size() already counts them. The caller
  // must fill every returned sample, or Truncate() them away.
  struct Span {
    Sample* data;
    size_t size;
  };
  Span AppendSpan(size_t n) {
    size_t at = size_ % kChunkSamples;
    if (at == 0 && n > 0) AddChunk();
    size_t k = n < kChunkSamples - at ? n : kChunkSamples - at;
    Span span{k ? chunks_.back().get() + at : nullptr, k};
    size_ += k;
    return span;
  }
  // Drops the samples from index `size` on (undo of a failed bulk load).
  void Truncate(size_t size) {
    if (size >= size_) return;
    size_ = size;
    chunks_.resize((size + kChunkSamples - 1) / kChunkSamples);
  }

  // Puts samples [from, size()) in time order, keeping the order of equal
  // timestamps (a loader's repair of a trace sampled out of order; rare, so
  // one scratch copy is fine).
  void SortByTimeFrom(size_t from) {
    if (from >= size_) return;
    std::vector<Sample> rows;
    rows.reserve(size_ - from);
    for (size_t i = from; i < size_; ++i) rows.push_back((*this)[i]);
    StableSort(&rows, [](const Sample& a, const Sample& b) {
      return a.timestamp < b.timestamp;
    });
    for (size_t i = from; i < size_; ++i)
      chunks_[i / kChunkSamples][i % kChunkSamples] = rows[i - from];
  }

  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (size_t i = 0; i < size_; ++i) fn((*this)[i]);
  }

 private:
  void AddChunk() { chunks_.emplace_back(new Sample[kChunkSamples]); }

  std::vector<std::unique_ptr<Sample[]>> chunks_;
  size_t size_ = 0;
};

}  // namespace webprof
