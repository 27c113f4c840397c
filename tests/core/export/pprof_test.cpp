// The pprof writer, decoded by protoc against tests/fixtures/pprof/
// profile.proto (pprof's published field numbers) and gunzipped by zlib.
// `go tool pprof` reads the real thing in tests/js/pprof.test.mjs.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include "export/format_pprof.h"
#include "export/format_registry.h"
#include "support/export_fixture.h"

namespace webprof {
namespace {

std::string RunCommand(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  EXPECT_EQ(pclose(p), 0) << cmd;
  return out;
}

std::string Decode(const std::string& bytes) {
  // One file per test: ctest runs this binary's tests in parallel processes.
  std::string path =
      ::testing::TempDir() + "webprof_pprof_" +
      ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".pb";
  std::ofstream(path, std::ios::binary).write(bytes.data(), bytes.size());
  return RunCommand(
      "protoc --decode=perftools.profiles.Profile -I " WEBPROF_FIXTURES_DIR
      "/pprof profile.proto < " +
      path);
}

std::vector<long long> Ints(const std::string& text, const std::string& re) {
  std::vector<long long> v;
  std::regex r(re);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), r);
       it != std::sregex_iterator(); ++it)
    v.push_back(std::stoll((*it)[1]));
  return v;
}

TEST(Pprof, ProtocDecodesTheProfileOfTheTrace) {
  testing::Fixture f(100);  // 0.5 ms apart, every 7th sample stackless
  ByteSink sink(5);         // awkward chunks: lengths straddle chunks
  PprofOptions o;
  o.gzip = false;
  WritePprof(f.input, o, sink);
  std::string text = Decode(sink.ToString());
  ASSERT_FALSE(text.empty());
  // The string table starts with "" and the value types follow it.
  EXPECT_NE(text.find("string_table: \"\"\nstring_table: \"samples\"\n"
                      "string_table: \"count\"\nstring_table: \"cpu\"\n"
                      "string_table: \"nanoseconds\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("period: 500000"), std::string::npos);
  EXPECT_NE(text.find("period_type {\n  type: 3\n  unit: 4\n}"),
            std::string::npos);
  // values come in pairs [count, ns]: counts add up to the samples, each
  // worth one period.
  std::vector<long long> values = Ints(text, R"(value: (-?\d+))");
  ASSERT_EQ(values.size() % 2, 0u);
  long long count = 0, ns = 0;
  for (size_t i = 0; i < values.size(); i += 2) {
    count += values[i];
    ns += values[i + 1];
  }
  EXPECT_EQ(count, 100);
  EXPECT_EQ(ns, 100 * 500000LL);
  // One location and one function per frame, plus (program) and (truncated).
  const size_t frames = f.trace.frames().size();
  EXPECT_EQ(Ints(text, R"(location \{\n  id: (\d+))").size(), frames + 2);
  EXPECT_EQ(Ints(text, R"(function \{\n  id: (\d+))").size(), frames + 2);
  EXPECT_NE(text.find("string_table: \"(program)\""), std::string::npos);
  EXPECT_NE(text.find("has_functions: true"), std::string::npos);
}

TEST(Pprof, DeepStacksAreTruncatedAtTheirRoot) {
  ProfilerTrace t;
  std::vector<FrameId> frames;
  for (int i = 0; i < 50; ++i)
    frames.push_back(
        t.InternFrame(RawFrame{"f" + std::to_string(i), "u.js", 1, 1}));
  StackId deep = t.InternStack(frames.data(), frames.size());
  t.mutable_samples().Append(Sample{1.0, deep});
  ExportInput in;
  in.profile = &t;
  PprofOptions o;
  o.gzip = false;
  o.max_stack_frames = 10;
  ByteSink sink;
  WritePprof(in, o, sink);
  std::string text = Decode(sink.ToString());
  std::vector<long long> ids = Ints(text, R"(location_id: (\d+))");
  ASSERT_EQ(ids.size(), 10u);
  EXPECT_EQ(ids.front(), 50);                         // leaf: f49
  EXPECT_EQ(ids.back(), static_cast<long long>(52));  // (truncated)
}

TEST(Pprof, RegistryWritesGzipOfTheSameProfile) {
  testing::Fixture f(300);
  const ExportFormat* fmt = FindExportFormat("pprof");
  ASSERT_NE(fmt, nullptr);
  EXPECT_EQ(fmt->id, int32_t(ExportFormatId::kPprof));
  EXPECT_STREQ(fmt->extension, "pb.gz");
  ByteSink gz, raw;
  ASSERT_EQ(WriteExport(fmt->id, f.input, ExportOptions{}, gz), Status::kOk);
  PprofOptions o;
  o.gzip = false;
  WritePprof(f.input, o, raw);
  std::string gzs = gz.ToString();
  std::vector<uint8_t> out(raw.size() + 1);
  z_stream z{};
  ASSERT_EQ(inflateInit2(&z, 16 + 15), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(gzs.data());
  z.avail_in = static_cast<uInt>(gzs.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  inflateEnd(&z);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(out.data()), z.total_out),
            raw.ToString());
  EXPECT_LT(gz.size(), raw.size());
}

TEST(Pprof, EmptyInputIsAValidEmptyProfile) {
  ExportInput in;
  ByteSink sink;
  PprofOptions o;
  o.gzip = false;
  WritePprof(in, o, sink);
  std::string text = Decode(sink.ToString());
  EXPECT_NE(text.find("sample_type {"), std::string::npos);
  EXPECT_NE(text.find("string_table: \"\""), std::string::npos);
  EXPECT_EQ(text.find("sample {"), std::string::npos);
}

}  // namespace
}  // namespace webprof
