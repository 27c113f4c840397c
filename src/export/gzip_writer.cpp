#include "export/gzip_writer.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>

namespace webprof {
namespace {

constexpr std::array<uint32_t, 256> MakeCrcTable() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}
constexpr std::array<uint32_t, 256> kCrcTable = MakeCrcTable();

// RFC 1951 3.2.5: length codes 257..285 and distance codes 0..29.
constexpr uint16_t kLengthBase[29] = {
    3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
    31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                      1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                      4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr uint16_t kDistBase[30] = {
    1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
    33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
    1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr uint8_t kDistExtra[30] = {0, 0, 0,  0,  1,  1,  2,  2,  3,  3,
                                    4, 4, 5,  5,  6,  6,  7,  7,  8,  8,
                                    9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

constexpr int kHashBits = 15;
constexpr size_t kHashSize = size_t{1} << kHashBits;
// Candidates tried per position: more finds longer matches, slower.
constexpr int kMaxChain = 48;

inline uint32_t Hash3(const uint8_t* p) {
  uint32_t v = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16;
  return (v * 2654435761u) >> (32 - kHashBits);
}

// Index of the last entry of `table` that is <= v.
template <size_t N>
inline size_t CodeFor(const uint16_t (&table)[N], size_t v) {
  return size_t(std::upper_bound(table, table + N, v) - table) - 1;
}

}  // namespace

uint32_t Crc32(const uint8_t* data, size_t n, uint32_t crc) {
  crc = ~crc;
  for (size_t i = 0; i < n; ++i)
    crc = kCrcTable[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

GzipWriter::GzipWriter(ByteSink* out)
    : out_(out),
      buf_(new uint8_t[2 * kWindow]),
      head_(new uint32_t[kHashSize]()),
      chain_(new uint32_t[kWindow]()) {
  // ID1 ID2, CM=8 (deflate), FLG=0, MTIME=0 (none), XFL=0, OS=255 (unknown).
  static const uint8_t kHeader[10] = {0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF};
  out_->Append(kHeader, sizeof kHeader);
  Bits(0, 1);  // BFINAL 0: the final block is an empty one written by Finish
  Bits(1, 2);  // BTYPE 01: fixed Huffman codes
}

GzipWriter::~GzipWriter() = default;

void GzipWriter::Write(const uint8_t* data, size_t n) {
  assert(!finished_);
  crc_ = Crc32(data, n, crc_);
  size_ += static_cast<uint32_t>(n);
  while (n > 0) {
    size_t take = std::min(n, 2 * kWindow - filled_);
    std::memcpy(buf_.get() + filled_, data, take);
    filled_ += take;
    data += take;
    n -= take;
    if (filled_ == 2 * kWindow) {
      Encode(filled_ - kMaxMatch);  // keep a full match of lookahead
      Slide();
    }
  }
}

void GzipWriter::Write(const ByteSink& in) {
  for (size_t i = 0; i < in.chunk_count(); ++i)
    Write(in.chunk_data(i), in.chunk_length(i));
}

void GzipWriter::Finish() {
  assert(!finished_);
  finished_ = true;
  Encode(filled_);
  Code(0, 7);  // end of block (symbol 256)
  Bits(1, 1);  // BFINAL
  Bits(1, 2);  // fixed codes
  Code(0, 7);  // an empty final block
  if (bit_count_ > 0) Bits(0, 8 - bit_count_);
  uint8_t trailer[8];
  for (int i = 0; i < 4; ++i) {
    trailer[i] = static_cast<uint8_t>(crc_ >> (8 * i));
    trailer[4 + i] = static_cast<uint8_t>(size_ >> (8 * i));
  }
  out_->Append(trailer, sizeof trailer);
}

void GzipWriter::Slide() {
  // Encode() stopped at most kMaxMatch bytes before the end, so everything
  // below kWindow is encoded and only serves as match history, which the
  // upper half still covers.
  assert(pos_ >= kWindow);
  std::memmove(buf_.get(), buf_.get() + kWindow, kWindow);
  base_ += static_cast<uint32_t>(kWindow);
  filled_ -= kWindow;
  pos_ -= kWindow;
}

void GzipWriter::Insert(size_t at) {
  if (at + kMinMatch > filled_) return;
  uint32_t abs = base_ + static_cast<uint32_t>(at);
  uint32_t h = Hash3(buf_.get() + at);
  chain_[abs % kWindow] = head_[h];
  head_[h] = abs + 1;
}

void GzipWriter::Encode(size_t until) {
  const uint8_t* b = buf_.get();
  while (pos_ < until) {
    size_t best_len = 0, best_dist = 0;
    const size_t max_len = std::min(kMaxMatch, filled_ - pos_);
    if (max_len >= kMinMatch) {
      const uint32_t abs = base_ + static_cast<uint32_t>(pos_);
      uint32_t cand = head_[Hash3(b + pos_)];
      for (int steps = 0; cand != 0 && steps < kMaxChain; ++steps) {
        uint32_t c = cand - 1;
        // Chains are a ring: an entry older than the window may have been
        // overwritten by a newer position, so stop at anything not older.
        if (c >= abs || abs - c > kWindow || c < base_) break;
        const uint8_t* p = b + (c - base_);
        if (p[best_len] == b[pos_ + best_len]) {
          size_t len = 0;
          while (len < max_len && p[len] == b[pos_ + len]) ++len;
          if (len > best_len) {
            best_len = len;
            best_dist = abs - c;
            if (len == max_len) break;
          }
        }
        uint32_t next = chain_[c % kWindow];
        if (next != 0 && next - 1 >= c) break;
        cand = next;
      }
    }
    if (best_len >= kMinMatch) {
      Match(best_len, best_dist);
      for (size_t k = 0; k < best_len; ++k) Insert(pos_ + k);
      pos_ += best_len;
    } else {
      Literal(b[pos_]);
      Insert(pos_);
      ++pos_;
    }
  }
}

void GzipWriter::Bits(uint32_t value, int count) {
  bits_ |= uint64_t{value} << bit_count_;
  bit_count_ += count;
  while (bit_count_ >= 8) {
    out_->Put(static_cast<uint8_t>(bits_));
    bits_ >>= 8;
    bit_count_ -= 8;
  }
}

void GzipWriter::Code(uint32_t code, int length) {
  // Huffman codes are packed starting from their most significant bit.
  uint32_t reversed = 0;
  for (int i = 0; i < length; ++i)
    reversed |= ((code >> i) & 1u) << (length - 1 - i);
  Bits(reversed, length);
}

// The fixed literal/length code (RFC 1951 3.2.6).
void GzipWriter::Literal(uint8_t byte) {
  if (byte < 144)
    Code(0x30u + byte, 8);
  else
    Code(0x190u + (byte - 144u), 9);
}

void GzipWriter::Match(size_t length, size_t distance) {
  size_t lc = CodeFor(kLengthBase, length);
  uint32_t symbol = 257 + static_cast<uint32_t>(lc);
  if (symbol < 280)
    Code(symbol - 256, 7);
  else
    Code(0xC0u + (symbol - 280), 8);
  if (kLengthExtra[lc])
    Bits(uint32_t(length - kLengthBase[lc]), kLengthExtra[lc]);
  size_t dc = CodeFor(kDistBase, distance);
  Code(static_cast<uint32_t>(dc), 5);
  if (kDistExtra[dc]) Bits(uint32_t(distance - kDistBase[dc]), kDistExtra[dc]);
}

}  // namespace webprof
