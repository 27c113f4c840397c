// GzipWriter: a gzip member (RFC 1952) holding one DEFLATE stream (RFC 1951),
// written into a ByteSink as the input arrives.
//
// Why our own: pprof's profile.pb.gz must be gzipped, and the core must do it
// identically natively and in Wasm. zlib is not part of Emscripten's prebuilt
// system libraries (its port is a download, unavailable with a frozen cache),
// and gzip at the JS edge would be async in the browser (CompressionStream),
// which the synchronous export registry cannot wait for.
//
// Design: greedy LZ77 over a 32 KiB window with hash chains (bounded length),
// coded with DEFLATE's fixed Huffman table (BTYPE 01). Fixed codes need no
// second pass and no code-length tables, so the writer streams: input is
// copied into a 64 KiB buffer, encoded once 258 bytes of lookahead exist, and
// the upper half slides down when the buffer is full. Repetitive protobuf
// (varint ids, repeated strings) compresses several-fold; incompressible
// input grows by at most 1/8 plus a few bytes.
// Memory: 64 KiB of input plus two 32 K-entry chain tables, fixed.
// Input positions are 32-bit: one member holds less than 4 GiB (gzip's ISIZE
// is the size modulo 2^32 anyway).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "export/byte_sink.h"

namespace webprof {

// CRC-32 (IEEE 802.3, as gzip and PNG use it), continued from `crc`.
uint32_t Crc32(const uint8_t* data, size_t n, uint32_t crc = 0);

class GzipWriter {
 public:
  // Writes the gzip header into `out` at once; `out` must outlive Finish().
  explicit GzipWriter(ByteSink* out);
  ~GzipWriter();
  GzipWriter(const GzipWriter&) = delete;
  GzipWriter& operator=(const GzipWriter&) = delete;

  void Write(const uint8_t* data, size_t n);
  void Write(std::string_view s) {
    Write(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  }
  // Every chunk of `in`, in order.
  void Write(const ByteSink& in);
  // Encodes what is left, ends the stream and writes the trailer. No Write()
  // after this.
  void Finish();

  static constexpr size_t kWindow = 32768;  // DEFLATE's largest distance
  static constexpr size_t kMaxMatch = 258;
  static constexpr size_t kMinMatch = 3;

 private:
  struct Tables;
  void Encode(size_t until);  // encodes buffer positions [pos_, until)
  void Slide();
  void Bits(uint32_t value, int count);  // LSB first
  void Code(uint32_t code, int length);  // a Huffman code, MSB first
  void Literal(uint8_t byte);
  void Match(size_t length, size_t distance);
  void Insert(size_t at);  // adds the 3 bytes at buffer index `at` to chains

  ByteSink* out_;
  std::unique_ptr<uint8_t[]> buf_;     // 2 * kWindow bytes of input
  std::unique_ptr<uint32_t[]> head_;   // hash -> absolute position + 1
  std::unique_ptr<uint32_t[]> chain_;  // position % kWindow -> previous + 1
  uint32_t base_ = 0;                  // absolute position of buf_[0]
  size_t filled_ = 0;                  // bytes in buf_
  size_t pos_ = 0;     // next buffer index to encode (<= filled_)
  uint64_t bits_ = 0;  // pending output bits, LSB first
  int bit_count_ = 0;
  uint32_t crc_ = 0;
  uint32_t size_ = 0;  // input bytes modulo 2^32
  bool finished_ = false;
};

}  // namespace webprof
