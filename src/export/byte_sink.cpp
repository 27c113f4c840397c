#include "export/byte_sink.h"

#include <cassert>

namespace webprof {

void ByteSink::NewChunk() {
  chunks_.emplace_back(new uint8_t[chunk_size_]);
  cursor_ = chunks_.back().get();
  room_ = chunk_size_;
}

void ByteSink::AppendSlow(const uint8_t* data, size_t n) {
  while (n > 0) {
    if (room_ == 0) NewChunk();
    size_t k = n < room_ ? n : room_;
    std::memcpy(cursor_, data, k);
    cursor_ += k;
    room_ -= k;
    size_ += k;
    data += k;
    n -= k;
  }
}

ByteSink::Slot ByteSink::Reserve(size_t n) {
  Slot slot{size_, n};
  static const uint8_t kZeros[16] = {};
  while (n > 0) {
    size_t k = n < sizeof(kZeros) ? n : sizeof(kZeros);
    Append(kZeros, k);
    n -= k;
  }
  return slot;
}

void ByteSink::Fill(const Slot& slot, const void* data, size_t n) {
  assert(n == slot.size && slot.offset + n <= size_);
  auto* src = static_cast<const uint8_t*>(data);
  size_t at = slot.offset;
  while (n > 0) {
    size_t chunk = at / chunk_size_, off = at % chunk_size_;
    size_t k = chunk_size_ - off;
    if (k > n) k = n;
    std::memcpy(chunks_[chunk].get() + off, src, k);
    src += k;
    at += k;
    n -= k;
  }
}

void ByteSink::CopyTo(uint8_t* dst) const {
  for (size_t i = 0; i < chunks_.size(); ++i) {
    size_t len = chunk_length(i);
    std::memcpy(dst, chunks_[i].get(), len);
    dst += len;
  }
}

std::string ByteSink::ToString() const {
  std::string out(size_, '\0');
  if (size_) CopyTo(reinterpret_cast<uint8_t*>(&out[0]));
  return out;
}

void ByteSink::Clear() {
  chunks_.clear();
  cursor_ = nullptr;
  room_ = 0;
  size_ = 0;
}

}  // namespace webprof
