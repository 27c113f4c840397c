// ProtoWriter: hand-written protobuf wire encoding into a ByteSink, in the
// manner of protozero (Perfetto's own encoder).
//
// Fields are appended in one pass. A nested message's length is unknown
// until it ends, so BeginNested() reserves 4 bytes in the sink and EndNested()
// back-fills them as a *redundant* varint (0x80|b0, 0x80|b1, 0x80|b2, b3).
// Protobuf decoders accept non-minimal varints, so nothing is moved; the cost
// is up to 3 bytes per message and a 2^28-byte limit per nested message
// (exporters keep messages far smaller by splitting packets).
// Repeated numeric fields are written unpacked, one tag per element: that is
// what Perfetto's trace processor reads.
#pragma once

#include <cstdint>
#include <string_view>

#include "export/byte_sink.h"

namespace webprof {

class ProtoWriter {
 public:
  static constexpr int kMaxNesting = 16;
  static constexpr size_t kLengthBytes = 4;

  explicit ProtoWriter(ByteSink* sink) : sink_(sink) {}

  void Varint(uint32_t field, uint64_t v) {
    Tag(field, 0);
    RawVarint(v);
  }
  void Int64(uint32_t field, int64_t v) {
    Varint(field, static_cast<uint64_t>(v));
  }
  void Bytes(uint32_t field, std::string_view data) {
    Tag(field, 2);
    RawVarint(data.size());
    sink_->Append(data);
  }
  void BeginNested(uint32_t field);
  void EndNested();
  int depth() const { return depth_; }

  void RawVarint(uint64_t v) {
    uint8_t buf[10];
    size_t n = 0;
    while (v >= 0x80) {
      buf[n++] = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    buf[n++] = static_cast<uint8_t>(v);
    sink_->Append(buf, n);
  }

 private:
  void Tag(uint32_t field, uint32_t wire_type) {
    RawVarint((uint64_t{field} << 3) | wire_type);
  }

  ByteSink* sink_;
  ByteSink::Slot open_[kMaxNesting];
  int depth_ = 0;
};

}  // namespace webprof
