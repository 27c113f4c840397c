// The .pftrace writer, checked by a decoder nobody here wrote: Debian's
// protoc, against tests/fixtures/perfetto/webprof_subset.proto (Perfetto's
// published field numbers), and `--decode_raw` for the wire shape.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "export/format_chrome_trace.h"
#include "export/format_perfetto.h"
#include "support/export_fixture.h"

namespace webprof {
namespace {

std::string WriteTemp(const ByteSink& sink, const std::string& name) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream f(path, std::ios::binary);
  std::string bytes = sink.ToString();
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

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

std::string Decode(const std::string& file) {
  return RunCommand(
      "protoc --decode=perfetto.protos.Trace -I " WEBPROF_FIXTURES_DIR
      "/perfetto webprof_subset.proto < " +
      file);
}

size_t Count(const std::string& text, const std::string& re) {
  std::regex r(re);
  return static_cast<size_t>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), r),
                    std::sregex_iterator()));
}

TEST(Perfetto, ProtocDecodesContentMatchingTheTrace) {
  testing::Fixture f(2500);  // > samples_per_packet: several packets
  ByteSink sink(5);          // awkward chunks: lengths straddle chunks
  PerfettoOptions o;
  o.thread.pid = 42;
  o.thread.tid = 7;
  WritePerfettoTrace(f.input, o, sink);
  std::string text = Decode(WriteTemp(sink, "a.pftrace"));
  ASSERT_FALSE(text.empty());

  // The first packet clears incremental state; every packet is on seq 1.
  size_t first = text.find("packet {"), second = text.find("packet {", 1);
  std::string first_packet = text.substr(first, second - first);
  EXPECT_NE(first_packet.find("sequence_flags: 1"), std::string::npos);
  EXPECT_NE(first_packet.find("clock_id: 6"), std::string::npos);
  EXPECT_NE(first_packet.find("clock_id: 3"), std::string::npos);
  EXPECT_EQ(Count(text, "trusted_packet_sequence_id: 1\n"),
            Count(text, "(^|\n)packet \\{"));

  // Samples: one callstack_iid and one delta per sample, summing to the
  // last sample's time.
  EXPECT_EQ(Count(text, "callstack_iid: \\d+"), 2500u);
  std::regex delta("timestamp_delta_us: (-?\\d+)");
  long long sum = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), delta);
       it != std::sregex_iterator(); ++it)
    sum += std::stoll((*it)[1]);
  std::smatch ref;
  ASSERT_TRUE(std::regex_search(text, ref,
                                std::regex("reference_timestamp_us: (\\d+)")));
  EXPECT_EQ(std::stoll(ref[1]), 10000);
  EXPECT_EQ(std::stoll(ref[1]) + sum, 10000 + 2499 * 500);

  // Interned data: every name and frame, every stack a sample uses (the
  // fixture never samples its deepest: that slot is a no-stack sample),
  // plus "(program)", "(truncated)" and a mapping.
  const ProfilerTrace& t = f.trace;
  EXPECT_EQ(Count(text, "function_names \\{"), t.names().size() + 2);
  EXPECT_EQ(Count(text, "\n    frames \\{"), t.frames().size() + 2);
  EXPECT_EQ(Count(text, "callstacks \\{"), t.stacks().size() - 1 + 1);
  EXPECT_EQ(Count(text, "mappings \\{"), 1u);
  EXPECT_NE(text.find("str: \"(program)\""), std::string::npos);
  EXPECT_NE(text.find("str: \"main\""), std::string::npos);
  // The deepest sampled stack lists its 6 frames, outermost (main = iid 1)
  // first.
  EXPECT_NE(text.find("iid: 6\n      frame_ids: 1\n      frame_ids: 2\n"),
            std::string::npos);
  EXPECT_EQ(text.find("iid: 7\n      frame_ids: 1\n"), std::string::npos);

  // Probe traces: 3 begin/end pairs; marks + aggregates: 3 instants.
  EXPECT_EQ(Count(text, "type: TYPE_SLICE_BEGIN"), 3u);
  EXPECT_EQ(Count(text, "type: TYPE_SLICE_END"), 3u);
  EXPECT_EQ(Count(text, "type: TYPE_INSTANT"), 3u);
  EXPECT_NE(text.find("legacy_json_value: \"{\\\"count\\\":3"),
            std::string::npos);
  EXPECT_NE(text.find("string_value: \"not json {\""), std::string::npos);
  EXPECT_NE(text.find("pid: 42"), std::string::npos);
  EXPECT_NE(text.find("tid: 7"), std::string::npos);
}

TEST(Perfetto, RepeatedNumbersAreUnpacked) {
  testing::Fixture f(50);
  ByteSink sink;
  WritePerfettoTrace(f.input, PerfettoOptions(), sink);
  std::string raw =
      RunCommand("protoc --decode_raw < " + WriteTemp(sink, "b.pftrace"));
  // Inside StreamingProfilePacket (54) every element is its own numeric
  // field; a packed field would show as one quoted blob "1: \"...\"".
  std::istringstream lines(raw);
  std::string line;
  int depth_in_54 = -1, depth = 0;
  size_t iids = 0, deltas = 0;
  while (std::getline(lines, line)) {
    std::string s = line.substr(line.find_first_not_of(' '));
    if (s == "54 {") depth_in_54 = depth;
    if (s.back() == '{') ++depth;
    if (s == "}") {
      --depth;
      if (depth == depth_in_54) depth_in_54 = -1;
    }
    if (depth_in_54 >= 0 && depth == depth_in_54 + 1) {
      EXPECT_EQ(s.find('"'), std::string::npos) << "packed blob: " << s;
      if (std::regex_match(s, std::regex("1: \\d+"))) ++iids;
      if (std::regex_match(s, std::regex("2: \\d+"))) ++deltas;
    }
  }
  EXPECT_EQ(iids, 50u);
  EXPECT_EQ(deltas, 50u);
}

TEST(Perfetto, OverlappingTracesGoToSeparateLanes) {
  ExportInput in;
  in.traces = {{"a", 0, 10, ""}, {"b", 5, 10, ""}, {"c", 1, 2, ""}};
  ByteSink sink;
  WritePerfettoTrace(in, PerfettoOptions(), sink);
  std::string text = Decode(WriteTemp(sink, "c.pftrace"));
  // a and its child c on the thread track; b overlaps a without nesting.
  EXPECT_EQ(Count(text, "track_descriptor \\{"), 3u);  // process, thread, lane
  EXPECT_NE(text.find("name: \"main traces 2\""), std::string::npos);
  EXPECT_EQ(Count(text, "type: TYPE_SLICE_BEGIN"), 3u);
  EXPECT_EQ(Count(text, "type: TYPE_SLICE_END"), 3u);
}

TEST(Perfetto, SmallerThanChromeJson) {
  testing::Fixture f(20000);
  ByteSink json, proto;
  WriteChromeTrace(f.input, ChromeTraceOptions(), json);
  WritePerfettoTrace(f.input, PerfettoOptions(), proto);
  EXPECT_LT(proto.size(), json.size());
}

// A chain of `depth` frames named "f" (distinct lines), sampled at every
// `step`-th level: the shape of deep recursion.
ProfilerTrace DeepChain(uint32_t depth, uint32_t step) {
  ProfilerTrace t;
  std::vector<FrameId> frames;
  for (uint32_t i = 0; i < depth; ++i)
    frames.push_back(
        t.InternFrame(RawFrame{"f", "https://x.test/r.js", i + 1, 1}));
  for (uint32_t d = step; d <= depth; d += step)
    t.mutable_samples().Append(
        Sample{double(d), t.InternStack(frames.data(), d)});
  return t;
}

TEST(Perfetto, OnlyStacksThatSamplesUseAreWritten) {
  ProfilerTrace t = DeepChain(50, 50);  // 50 prefix stacks, 1 sampled
  ExportInput in;
  in.profile = &t;
  ByteSink sink;
  WritePerfettoTrace(in, PerfettoOptions(), sink);
  std::string text = Decode(WriteTemp(sink, "d.pftrace"));
  EXPECT_EQ(Count(text, "callstacks \\{"), 2u);  // the leaf + "(program)"
  EXPECT_EQ(Count(text, "frame_ids: \\d+"), 50u + 1u);
}

// A page can hand the exporter any trace: a 100 000-deep stack must cost
// output linear in the samples, not the square of the depth.
TEST(Perfetto, DeepStacksAreTruncatedLinearly) {
  ProfilerTrace t = DeepChain(100000, 1000);  // 100 samples, 1k..100k deep
  ExportInput in;
  in.profile = &t;
  ByteSink sink;
  PerfettoOptions o;
  WritePerfettoTrace(in, o, sink);
  // 100 callstacks of <= 1024 ids (<= 3 bytes each with its tag) plus the
  // 100 000 interned frames (< 16 bytes each).
  EXPECT_LT(sink.size(), 100u * o.max_callstack_frames * 4 + 100000u * 16);
  std::string text = Decode(WriteTemp(sink, "e.pftrace"));
  EXPECT_EQ(Count(text, "callstacks \\{"), 101u);
  // The deepest keeps its 1023 innermost frames under "(truncated)"
  // (frame iid frames+2 = 100002); the 1000-deep one is whole.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      text, m, std::regex("iid: 100000\n      frame_ids: (\\d+)\n")));
  EXPECT_EQ(m[1], "100002");
  EXPECT_NE(text.find("str: \"(truncated)\""), std::string::npos);
  EXPECT_EQ(Count(text, "frame_ids: 100002\n"), 99u);
}

}  // namespace
}  // namespace webprof
