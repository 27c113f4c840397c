// The gzip writer, checked by an inflater nobody here wrote (zlib): every
// output must inflate to the input with a matching CRC and size, whatever
// the input's shape and however it arrives.
#include "export/gzip_writer.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

namespace webprof {
namespace {

// Inflates a gzip member with zlib; fails the test on any error.
std::string Gunzip(const std::string& gz) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + 15), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  std::string out;
  char buf[65536];
  int rc;
  do {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    EXPECT_TRUE(rc == Z_OK || rc == Z_STREAM_END)
        << rc << " " << (z.msg ? z.msg : "");
    out.append(buf, sizeof buf - z.avail_out);
  } while (rc == Z_OK);
  EXPECT_EQ(z.avail_in, 0u);  // nothing after the trailer
  inflateEnd(&z);
  return out;
}

std::string Gzip(const std::string& in, size_t piece = 0, size_t chunk = 0) {
  ByteSink sink(chunk ? chunk : ByteSink::kDefaultChunkSize);
  GzipWriter gz(&sink);
  if (piece == 0) {
    gz.Write(in);
  } else {
    for (size_t i = 0; i < in.size(); i += piece)
      gz.Write(std::string_view(in).substr(i, piece));
  }
  gz.Finish();
  return sink.ToString();
}

std::string Random(size_t n, uint32_t seed, int alphabet = 256) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() % alphabet);
  return s;
}

TEST(GzipWriter, Crc32KnownValue) {
  const std::string s = "123456789";
  EXPECT_EQ(Crc32(reinterpret_cast<const uint8_t*>(s.data()), s.size()),
            0xCBF43926u);
}

TEST(GzipWriter, EmptyAndTinyInputsRoundTrip) {
  for (std::string in : {std::string(), std::string("a"), std::string("abc"),
                         std::string("\0\xff\x80", 3)}) {
    std::string gz = Gzip(in);
    ASSERT_GE(gz.size(), 18u);
    EXPECT_EQ(uint8_t(gz[0]), 0x1F);
    EXPECT_EQ(uint8_t(gz[1]), 0x8B);
    EXPECT_EQ(Gunzip(gz), in);
  }
}

TEST(GzipWriter, ShapesRoundTripAcrossTheWindowAndChunkBoundaries) {
  std::string runs(300000, 'x');          // matches of 258, distance 1
  std::string period = Random(32768, 1);  // a repeat at the largest distance
  period += period + period;
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "frame " + std::to_string(i % 977) + ";";
  std::string noise = Random(200000, 2);  // incompressible
  std::string small_alphabet = Random(150000, 3, 4);
  for (const std::string* in :
       {&runs, &period, &text, &noise, &small_alphabet}) {
    EXPECT_EQ(Gunzip(Gzip(*in)), *in);
    EXPECT_EQ(Gunzip(Gzip(*in, 1, 7)), *in) << "byte by byte, 7-byte chunks";
    EXPECT_EQ(Gunzip(Gzip(*in, 65535)), *in);
  }
}

TEST(GzipWriter, CompressesRepetitiveDataAndBoundsGrowth) {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "frame " + std::to_string(i % 977) + ";";
  EXPECT_LT(Gzip(text).size() * 4, text.size());
  std::string noise = Random(200000, 4);
  EXPECT_LE(Gzip(noise).size(), noise.size() + noise.size() / 8 + 32);
}

TEST(GzipWriter, WritesEveryChunkOfASink) {
  ByteSink in(13);
  std::string text = Random(100000, 5, 16);
  in.Append(text);
  ByteSink out;
  GzipWriter gz(&out);
  gz.Write(in);
  gz.Finish();
  EXPECT_EQ(Gunzip(out.ToString()), text);
}

}  // namespace
}  // namespace webprof
