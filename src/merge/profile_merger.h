// Adding profiles up: any number of inputs, in any format the importers
// read (import/profile_format.h), folded one at a time into one weighted
// profile — a stack -> (sample count, total time) table keyed by function
// identity.
//
// Problem: a fleet's profiles are thousands of files of 10^4..10^6 samples
// each; what people want is their sum. Keeping samples would cost memory per
// sample and per file. So an input is read and validated by its importer's
// reader (the importers' rules and errors are theirs; nothing is folded
// until the whole input passed), then its stack rows — V8 nodes, W3C stack
// rows, a Gecko thread's session — are interned straight into the merged
// trace when a sample first reaches them (no per-input session; a frame
// already seen in an earlier input is found in frame_cache.h, not interned
// again) — a function is the same function in every input when
// (name, resource, line, column) are equal, after its script's source map
// (if given) moved it to the original function — and each sample adds 1
// and its time to its stack's weight; then the input's rows and text are
// dropped. Memory: the merged tables (distinct strings, frames, stacks:
// their caps apply) plus one input at a time.
//
// A sample's time: until the next sample of its thread (the convention of
// DevTools and speedscope for V8 profiles, and so of the formats it goes
// out in); the last one's until the profile's end when the input records
// one (.cpuprofile endTime, the Chrome trace's last ProfileChunk) after it,
// else the input's median interval. Times are whole ns from rounded
// absolute times, so an input's time is exactly (last - first) + the last
// sample's, and totals are exact integer sums: the merged total time and
// count are the sums of the inputs'.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "export/byte_sink.h"
#include "export/export_input.h"
#include "import/cpuprofile.h"
#include "import/profile_format.h"
#include "import/w3c_trace.h"
#include "merge/frame_cache.h"
#include "symbolicate/source_map.h"
#include "symbolicate/symbolicator.h"
#include "trace/profiler_trace.h"

namespace webprof {

struct MergeTotals {
  uint32_t inputs = 0;    // inputs added
  uint32_t profiles = 0;  // sampled threads folded (a file may hold several)
  uint64_t samples = 0;
  int64_t time_ns = 0;
};

struct MergeInputInfo {
  ProfileFormat format = ProfileFormat::kUnknown;
  uint32_t profiles = 0;
  uint64_t samples = 0;
  int64_t time_ns = 0;
};

class ProfileMerger {
 public:
  ProfileMerger();
  ~ProfileMerger();

  // The source map of a script: `script` is its URL, or a bare file name
  // ("app.js", no '/') that stands for any URL whose path ends in /app.js
  // (an exact URL wins). `map_url` resolves the map's relative sources.
  // Add maps before the inputs they apply to. kSourceMapInvalid with
  // `error` when the map does not parse (nothing kept).
  Status AddSourceMap(std::string_view script, std::string_view map_json,
                      std::string_view map_url, std::string* error);

  // One input's text in any format DetectProfileFormat() knows. `name`
  // (e.g. the file name) starts every error. kMalformedProfile,
  // kNoProfileThread or kInvalidArgument (not a format webprof reads) with
  // `error`; the merged profile is unchanged then.
  Status AddInput(std::string_view text, std::string_view name,
                  MergeInputInfo* info, std::string* error);

  // One sampled thread already imported (samples in time order); `end_ms`
  // on its samples' clock, NaN when unknown. Adds to *info.
  void AddTrace(const ProfilerTrace& trace, double end_ms,
                MergeInputInfo* info);
  // The same for a V8 profile read and validated (import/cpuprofile.h) and
  // for a W3C trace's validated rows (import/w3c_trace.h).
  void AddV8Profile(const RawCpuProfile& profile, double origin_us,
                    double end_ms, MergeInputInfo* info);
  void AddW3CRows(const W3CTraceRows& rows, MergeInputInfo* info);

  const MergeTotals& totals() const { return totals_; }
  // Distinct stacks with samples (the stackless one included).
  uint32_t weighted_stacks() const;
  const ProfilerTrace& merged() const { return merged_; }

  // The merged profile as exporters take it: one sample per weighted stack,
  // laid end to end from 0 in depth-first order of the stack tree (so a
  // timeline shows it as a flame graph), each with its weight
  // (export_input.h). Valid until the next call on this object.
  const ExportInput& ExportView();
  // Writes it in format `id` of the format registry.
  Status Write(int32_t format, const ExportOptions& options, ByteSink& out);

  // Bytes held: merged tables, weights, maps, the reused scratch (for the
  // memory benchmark).
  size_t memory_bytes() const;

 private:
  struct MapEntry;
  // AddInput()'s per-format paths: read and validate `text`, then fold it;
  // `why` says what is wrong.
  Status AddCpuProfileText(std::string_view text, MergeInputInfo* info,
                           std::string* why);
  Status AddChromeTraceText(std::string_view text, MergeInputInfo* info,
                            std::string* why);
  Status AddW3CTraceText(std::string_view text, MergeInputInfo* info,
                         std::string* why);
  Status AddGeckoText(std::string_view text, MergeInputInfo* info,
                      std::string* why);
  // One input's rows, read through an adapter (Input: parent(row), the
  // frame key of a row, frame(key) -> RawFrame or false for no function);
  // rows and frame keys index stack_map_ and frame_map_.
  void BeginInput(size_t rows, size_t frame_keys);
  template <typename Input>
  StackId Resolve(const Input& in, uint32_t row) {
    const uint32_t m = stack_map_[row];
    return m != kUnresolved ? StackId(m) : ResolveChain(in, row);
  }
  template <typename Input>
  StackId ResolveChain(const Input& in, uint32_t row);
  template <typename Input>
  FrameId MapFrame(const Input& in, uint32_t key);
  // The merged frame of an input's frame (frame_cache_ first).
  FrameId MergedFrame(RawFrame raw);
  const MapEntry* MapFor(std::string_view url);
  void Add(StackId s, uint64_t count, int64_t ns) {
    SampleWeight& w = s.is_none() ? stackless_ : weights_[s.value];
    w.count += count;
    w.time_ns += ns;
  }

  // A thread's samples, in time order, folded as they come: each sample's
  // time is known when the next one arrives. The state is a local of the
  // Add* function (passed by value when it leaves): as members, the fold's
  // counters were reloaded after every weight update.
  struct ThreadFold {
    int64_t at = 0, total = 0;  // the last sample's time, the time so far
    StackId prev = StackId::None();
    uint64_t samples = 0;
    int64_t* gaps = nullptr;  // kGaps: gaps_'s room for every gap
  };
  // Room in gaps_ for the gaps of `samples` samples (their data).
  int64_t* BeginThread(size_t samples);
  // kGaps: each gap also kept (f.gaps) for the median interval.
  template <bool kGaps>
  void Take(ThreadFold& f, int64_t ns, StackId s) {
    if (f.samples > 0) {
      const int64_t gap = ns > f.at ? ns - f.at : 0;
      if (kGaps) f.gaps[f.samples - 1] = gap;
      Add(f.prev, 1, gap);
      f.total += gap;
    }
    f.at = ns;
    f.prev = s;
    ++f.samples;
  }
  // The last sample lasts until the end when it is after it, else for the
  // median gap (gaps_ holds every gap of the thread then).
  static bool EndsAfter(double end_ms, int64_t last_ns);
  void EndThread(ThreadFold f, double end_ms, MergeInputInfo* info);

  static constexpr uint32_t kUnresolved = 0xFFFFFFFEu;  // never an id

  ProfilerTrace merged_;
  // By merged StackId; the last entry is the stackless samples'.
  std::vector<SampleWeight> weights_;
  SampleWeight stackless_;
  MergeTotals totals_;

  std::vector<std::unique_ptr<MapEntry>> maps_;
  std::unordered_map<std::string, size_t> maps_by_key_;
  // Across inputs: an input's frame identity -> its merged frame.
  FrameCache frame_cache_;

  // Per input, reused: input row / frame key -> merged id (kUnresolved
  // until used); a script's URL -> its map (maps_ index, or kNoMap).
  std::vector<uint32_t> stack_map_, frame_map_;
  std::unordered_map<std::string_view, uint32_t> map_of_url_;
  std::vector<uint32_t> chain_, order_;
  // One input's rows as read, kept from input to input with their storage
  // (cleared first; their views into the last input's text are not read
  // again): no regrowth of the same arrays for every file.
  RawCpuProfile cpu_profile_;
  W3CTraceRows w3c_rows_;
  // The gaps between the samples of the thread being folded.
  std::vector<int64_t> gaps_;

  // ExportView()'s.
  std::vector<SampleWeight> view_weights_;
  ExportInput view_;
};

}  // namespace webprof
