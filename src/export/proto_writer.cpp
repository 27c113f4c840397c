#include "export/proto_writer.h"

#include <cassert>

namespace webprof {

void ProtoWriter::BeginNested(uint32_t field) {
  assert(depth_ < kMaxNesting);
  Tag(field, 2);
  open_[depth_++] = sink_->Reserve(kLengthBytes);
}

void ProtoWriter::EndNested() {
  assert(depth_ > 0);
  const ByteSink::Slot& slot = open_[--depth_];
  size_t len = sink_->size() - slot.offset - kLengthBytes;
  assert(len < (size_t{1} << 28));
  uint8_t b[kLengthBytes] = {static_cast<uint8_t>((len & 0x7F) | 0x80),
                             static_cast<uint8_t>(((len >> 7) & 0x7F) | 0x80),
                             static_cast<uint8_t>(((len >> 14) & 0x7F) | 0x80),
                             static_cast<uint8_t>((len >> 21) & 0x7F)};
  sink_->Fill(slot, b, kLengthBytes);
}

}  // namespace webprof
