#include "export/format_pprof.h"

#include <algorithm>
#include <vector>

#include "base/median.h"
#include "base/time_units.h"
#include "export/gzip_writer.h"
#include "export/proto_writer.h"

namespace webprof {
namespace {

// Fixed string-table rows; frame names and URLs follow them.
enum FixedString : int64_t {
  kEmpty = 0,
  kSamples,
  kCount,
  kCpu,
  kNanoseconds,
  kProgram,
  kTruncated,
  kAnonymous,
  kFixedStrings
};
const char* const kFixedText[kFixedStrings] = {
    "",          "samples",     "count",      "cpu", "nanoseconds",
    "(program)", "(truncated)", "(anonymous)"};

// The sampling period: the median interval between samples, 0 when there
// are fewer than two.
int64_t Period(const SampleBuffer& s) {
  std::vector<int64_t> deltas;
  deltas.reserve(s.size());
  for (size_t i = 0; i + 1 < s.size(); ++i)
    deltas.push_back(std::max<int64_t>(
        0, MsToNs(s[i + 1].timestamp) - MsToNs(s[i].timestamp)));
  return MedianInPlace(deltas.data(), deltas.size());
}

class PprofEncoder {
 public:
  PprofEncoder(const ExportInput& in, const ProfilerTrace& p,
               const PprofOptions& o, ByteSink& out)
      : in_(in), p_(p), o_(o), w_(&out) {}

  void Run() {
    const uint32_t frames = p_.frames().size();
    program_loc_ = uint64_t{frames} + 1;
    truncated_loc_ = uint64_t{frames} + 2;
    ValueType(pp::kSampleType, kSamples, kCount);
    ValueType(pp::kSampleType, kCpu, kNanoseconds);
    const SampleBuffer& s = p_.samples();
    int64_t period = 0, duration = 0;
    if (in_.weights) {
      // A weighted profile carries its times: the period is their mean.
      uint64_t count = 0;
      for (const SampleWeight& w : *in_.weights) {
        count += w.count;
        duration += w.time_ns;
      }
      period = count ? duration / static_cast<int64_t>(count) : 0;
    } else {
      period = Period(s);
      if (!s.empty())
        duration = MsToNs(s.back().timestamp) - MsToNs(s[0].timestamp) + period;
    }
    WriteSamples(period);
    WriteMapping();
    WriteLocationsAndFunctions();
    WriteStrings();
    if (!s.empty()) w_.Int64(pp::kDurationNanos, duration);
    ValueType(pp::kPeriodType, kCpu, kNanoseconds);
    w_.Int64(pp::kPeriod, period);
  }

 private:
  void ValueType(uint32_t field, int64_t type, int64_t unit) {
    w_.BeginNested(field);
    w_.Int64(1, type);
    w_.Int64(2, unit);
    w_.EndNested();
  }

  // Samples grouped by stack (index stacks.size() = stackless).
  void WriteSamples(int64_t period) {
    const SampleBuffer& s = p_.samples();
    const uint32_t stacks = p_.stacks().size();
    std::vector<int64_t> count(stacks + 1, 0), time(stacks + 1, 0);
    for (size_t i = 0; i < s.size(); ++i) {
      StackId id = s[i].stack;
      size_t k = id.is_none() || id.value >= stacks ? stacks : id.value;
      if (in_.weights) {
        count[k] += static_cast<int64_t>((*in_.weights)[i].count);
        time[k] += (*in_.weights)[i].time_ns;
      } else {
        ++count[k];
        time[k] += period;
      }
    }
    const size_t cap = std::max<uint32_t>(o_.max_stack_frames, 2);
    for (size_t k = 0; k <= stacks; ++k) {
      if (count[k] == 0 && time[k] == 0) continue;
      w_.BeginNested(pp::kSample);
      w_.BeginNested(1);  // location_id, packed, leaf first
      if (k == stacks) {
        w_.RawVarint(program_loc_);
      } else {
        size_t depth = 0;
        StackId at(static_cast<uint32_t>(k));
        for (; !at.is_none() && depth + 1 < cap; ++depth) {
          const Stack& row = p_.stacks().Get(at);
          w_.RawVarint(uint64_t{row.frame.value} + 1);
          at = row.parent;
        }
        if (!at.is_none()) w_.RawVarint(truncated_loc_);
      }
      w_.EndNested();
      w_.BeginNested(2);  // value, packed: [count, cpu ns]
      w_.RawVarint(static_cast<uint64_t>(count[k]));
      w_.RawVarint(static_cast<uint64_t>(time[k]));
      w_.EndNested();
      w_.EndNested();
    }
  }

  void WriteMapping() {
    w_.BeginNested(pp::kMapping);
    w_.Varint(1, 1);  // id
    w_.Varint(7, 1);  // has_functions
    w_.Varint(8, 1);  // has_filenames
    w_.Varint(9, 1);  // has_line_numbers
    w_.EndNested();
  }

  int64_t NameString(FrameId f) const {
    const Frame& fr = p_.frames().Get(f);
    return p_.names().Get(fr.name).empty() ? kAnonymous
                                           : kFixedStrings + fr.name.value;
  }
  int64_t FileString(FrameId f) const {
    const Frame& fr = p_.frames().Get(f);
    return fr.resource.is_none()
               ? kEmpty
               : kFixedStrings + p_.names().size() + fr.resource.value;
  }

  void Entry(uint64_t id, int64_t name, int64_t file, uint32_t line,
             uint32_t column) {
    w_.BeginNested(pp::kLocation);
    w_.Varint(1, id);
    w_.Varint(2, 1);    // mapping_id
    w_.BeginNested(4);  // line
    w_.Varint(1, id);   // function_id
    if (line) w_.Int64(2, line);
    if (column) w_.Int64(3, column);
    w_.EndNested();
    w_.EndNested();
    w_.BeginNested(pp::kFunction);
    w_.Varint(1, id);
    w_.Int64(2, name);
    w_.Int64(3, name);  // system_name
    if (file) w_.Int64(4, file);
    if (line) w_.Int64(5, line);  // start_line
    w_.EndNested();
  }

  void WriteLocationsAndFunctions() {
    for (uint32_t i = 0; i < p_.frames().size(); ++i) {
      FrameId f(i);
      const Frame& fr = p_.frames().Get(f);
      Entry(uint64_t{i} + 1, NameString(f), FileString(f), fr.line, fr.column);
    }
    Entry(program_loc_, kProgram, kEmpty, 0, 0);
    Entry(truncated_loc_, kTruncated, kEmpty, 0, 0);
  }

  void WriteStrings() {
    for (const char* s : kFixedText) w_.Bytes(pp::kStringTable, s);
    for (uint32_t i = 0; i < p_.names().size(); ++i)
      w_.Bytes(pp::kStringTable, p_.names().Get(StringId(i)));
    for (uint32_t i = 0; i < p_.resources().size(); ++i)
      w_.Bytes(pp::kStringTable, p_.resources().Get(StringId(i)));
  }

  const ExportInput& in_;
  const ProfilerTrace& p_;
  const PprofOptions& o_;
  ProtoWriter w_;
  uint64_t program_loc_ = 0, truncated_loc_ = 0;
};

}  // namespace

void WritePprof(const ExportInput& in, const PprofOptions& opts,
                ByteSink& out) {
  static const ProfilerTrace kEmpty;
  const ProfilerTrace& p = in.profile ? *in.profile : kEmpty;
  if (!opts.gzip) {
    PprofEncoder(in, p, opts, out).Run();
    return;
  }
  // Nested lengths are back-filled, so the message is complete only at the
  // end: encode, then compress chunk by chunk.
  ByteSink proto;
  PprofEncoder(in, p, opts, proto).Run();
  GzipWriter gz(&out);
  gz.Write(proto);
  gz.Finish();
}

void WritePprofFormat(const ExportInput& in, const ExportOptions& o,
                      ByteSink& out) {
  WritePprof(in, PprofOptions{}, out);
}

}  // namespace webprof
