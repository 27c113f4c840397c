// A small but hostile export input shared by the format tests: nested
// stacks, stackless samples, names that break naive JSON writers, and probe
// marks/traces/aggregates with valid and invalid info JSON.
#pragma once

#include <string>
#include <vector>

#include "export/export_input.h"

namespace webprof::testing {

inline const std::vector<std::string>& HostileNames() {
  static const std::vector<std::string> names = {"main",
                                                 "\"},{\"ph\":\"X",
                                                 "back\\slash",
                                                 "line\nbreak",
                                                 std::string("nul\0x", 5),
                                                 "\xED\xA0\x80lone",
                                                 "\xF0\x9F\x98\x80 emoji"};
  return names;
}

// Samples: t = 10.0, 10.5, ... ms; stacks cycle through
// [main], [main, h1], [main, h1, h2], ..., and every 7th sample has none.
struct Fixture {
  ProfilerTrace trace;
  ExportInput input;
  std::vector<StackId> leaf;  // leaf stack per hostile name depth

  explicit Fixture(size_t samples = 100) {
    const auto& names = HostileNames();
    std::vector<FrameId> frames;
    for (size_t i = 0; i < names.size(); ++i) {
      RawFrame raw{names[i], i % 2 ? "https://example.test/a b.js" : "",
                   static_cast<uint32_t>(i ? i * 10 : 0),
                   static_cast<uint32_t>(i ? i + 1 : 0)};
      frames.push_back(trace.InternFrame(raw));
      leaf.push_back(trace.InternStack(frames.data(), frames.size()));
    }
    for (size_t i = 0; i < samples; ++i) {
      StackId s = i % 7 == 6 ? StackId::None() : leaf[i % leaf.size()];
      trace.mutable_samples().Append(Sample{10.0 + 0.5 * double(i), s});
    }
    input.profile = &trace;
    input.traces = {{"outer \"x\"", 10.25, 5.125, R"({"n":1})"},
                    {"inner\n", 11.0, 1.0, "not json {"},
                    {"overlapping", 14.0, 4.0, ""}};
    input.marks = {{"mark \xF0\x9F\x98\x80", 12.5, ""},
                   {"m2", 13.0, R"(["a",2])"}};
    input.aggregates = {{"render", R"({"count":3,"sum":1.5,"p50":0.4})"},
                        {"bad \\ name", "nope"}};
  }
};

}  // namespace webprof::testing
