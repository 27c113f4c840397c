// ByteSink and ProtoWriter: chunking and back-filling with awkward chunk sizes.
#include "export/byte_sink.h"

#include <gtest/gtest.h>

#include <string>

#include "export/proto_writer.h"

namespace webprof {
namespace {

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

class ChunkSizes : public ::testing::TestWithParam<size_t> {};

TEST_P(ChunkSizes, AppendsAcrossChunksInOrder) {
  ByteSink sink(GetParam());
  std::string expect;
  for (size_t n : {0u, 1u, 2u, 3u, 5u, 8u, 13u, 100u, 1u, 4097u}) {
    std::string p = Pattern(n);
    sink.Append(p);
    expect += p;
    sink.Put('#');
    expect += '#';
  }
  EXPECT_EQ(sink.size(), expect.size());
  EXPECT_EQ(sink.ToString(), expect);
  size_t total = 0;
  for (size_t i = 0; i < sink.chunk_count(); ++i) {
    EXPECT_LE(sink.chunk_length(i), sink.chunk_size());
    total += sink.chunk_length(i);
  }
  EXPECT_EQ(total, expect.size());
}

TEST_P(ChunkSizes, ReservedSlotsStraddlingChunksAreBackFilled) {
  ByteSink sink(GetParam());
  std::string expect;
  std::vector<std::pair<ByteSink::Slot, std::string>> slots;
  for (int i = 0; i < 20; ++i) {
    std::string head = Pattern(static_cast<size_t>(i));
    sink.Append(head);
    expect += head;
    std::string fill = "[" + std::to_string(i) + "]";
    slots.emplace_back(sink.Reserve(fill.size()), fill);
    expect += fill;
  }
  for (auto& [slot, text] : slots) sink.Fill(slot, text.data(), text.size());
  EXPECT_EQ(sink.ToString(), expect);
}

TEST_P(ChunkSizes, NestedProtoLengthsAreBackFilled) {
  ByteSink sink(GetParam());
  ProtoWriter w(&sink);
  w.BeginNested(1);
  w.Varint(2, 300);
  w.BeginNested(3);
  w.Bytes(4, "hi");
  w.EndNested();
  w.EndNested();
  // 0a [len=3+5+4=12 as a redundant varint] 10 ac 02 1a [len 4 bytes] 22 02 'h'
  // 'i'
  const std::string expect(
      "\x0a\x8c\x80\x80\x00"
      "\x10\xac\x02"
      "\x1a\x84\x80\x80\x00"
      "\x22\x02hi",
      17);
  EXPECT_EQ(sink.ToString(), expect);
}

INSTANTIATE_TEST_SUITE_P(Awkward, ChunkSizes,
                         ::testing::Values(1, 2, 3, 7, 64, 4096));

TEST(ByteSink, ClearStartsOver) {
  ByteSink sink(5);
  sink.Append("hello world");
  sink.Clear();
  EXPECT_EQ(sink.size(), 0u);
  sink.Append("x");
  EXPECT_EQ(sink.ToString(), "x");
}

}  // namespace
}  // namespace webprof
