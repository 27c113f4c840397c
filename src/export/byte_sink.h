// ByteSink: the output buffer every exporter writes into.
//
// Exports can be hundreds of megabytes, and in Wasm a doubling buffer would
// need old + new capacity at the moment it grows (and copy everything). The
// sink instead appends into fixed-size chunks: a full chunk is never moved,
// so memory is the output size plus one partly filled chunk. The consumer
// reads the chunks in order (JS copies each into one ArrayBuffer, once).
//
// Protobuf needs a message's length before its bytes. Reserve() hands out a
// Slot for a fixed number of bytes and Fill() writes them later; a slot may
// straddle a chunk boundary, so Fill() writes byte by byte through the chunk
// list instead of assuming contiguity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace webprof {

class ByteSink {
 public:
  static constexpr size_t kDefaultChunkSize = 256 * 1024;

  // A reserved span of `size` bytes starting at absolute offset `offset`.
  struct Slot {
    size_t offset = 0;
    size_t size = 0;
  };

  explicit ByteSink(size_t chunk_size = kDefaultChunkSize)
      : chunk_size_(chunk_size ? chunk_size : 1) {}
  ByteSink(const ByteSink&) = delete;
  ByteSink& operator=(const ByteSink&) = delete;

  // Fast case inline: the bytes fit in the current chunk.
  void Append(const void* data, size_t n) {
    if (n <= room_) {
      if (n) std::memcpy(cursor_, data, n);  // an empty view's data may be null
      cursor_ += n;
      room_ -= n;
      size_ += n;
      return;
    }
    AppendSlow(static_cast<const uint8_t*>(data), n);
  }
  void Append(std::string_view s) { Append(s.data(), s.size()); }
  void Put(uint8_t byte) {
    if (room_ == 0) NewChunk();
    *cursor_++ = byte;
    --room_;
    ++size_;
  }

  // Hot-path formatting straight into the chunk: a pointer to `max` free
  // contiguous bytes, or null when the current chunk has less room (then
  // format into a local buffer and Append()). Advance() commits what was
  // written.
  uint8_t* WritePtr(size_t max) { return room_ >= max ? cursor_ : nullptr; }
  void Advance(size_t n) {
    cursor_ += n;
    room_ -= n;
    size_ += n;
  }

  // Reserves `n` bytes to be written later with Fill(); their content is
  // zero until then.
  Slot Reserve(size_t n);
  // Writes `n` == slot.size bytes into a reserved slot.
  void Fill(const Slot& slot, const void* data, size_t n);

  size_t size() const { return size_; }
  size_t chunk_size() const { return chunk_size_; }
  size_t chunk_count() const { return chunks_.size(); }
  // Chunk i holds chunk_length(i) bytes; all but the last are full.
  const uint8_t* chunk_data(size_t i) const { return chunks_[i].get(); }
  size_t chunk_length(size_t i) const {
    return i + 1 < chunks_.size() ? chunk_size_ : chunk_size_ - room_;
  }
  // Copies everything into `dst` (which holds size() bytes).
  void CopyTo(uint8_t* dst) const;
  std::string ToString() const;
  void Clear();

 private:
  void AppendSlow(const uint8_t* data, size_t n);
  void NewChunk();

  size_t chunk_size_;
  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  uint8_t* cursor_ = nullptr;  // next free byte of the last chunk
  size_t room_ = 0;            // free bytes left in the last chunk
  size_t size_ = 0;            // total bytes written
};

}  // namespace webprof
