// Bindings for the exporters: load a W3C ProfilerTrace and probe records in
// bulk, write one format, hand the bytes to JS chunk by chunk.
//
// Ownership: JS creates an ExportBuilder (embind) and must delete() it; it
// owns its ProfilerTrace, its ExportInput and the output ByteSink. Input
// arrives in a few bulk calls over buffers JS malloc()ed and filled (strings
// as one UTF-8 blob + a Uint32Array of byte lengths, numbers as
// Float64Array/Uint32Array; samples straight into the trace's own storage),
// never one call per sample. Output stays in the sink's chunks in Wasm
// memory; JS copies each chunk once into a single ArrayBuffer and then calls
// clearOutput(). Every load call validates its rows and returns a Status; on
// error nothing from that call is kept.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "base/status.h"
#include "bind_util.h"
#include "export/byte_sink.h"
#include "export/export_input.h"
#include "export/format_registry.h"
#include "export/probe_window.h"
#include "trace/profiler_trace.h"
#include "trace/session.h"

using namespace emscripten;
using namespace webprof;

namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;
constexpr double kTwoPow52 = 4503599627370496.0;

// Walks a blob of consecutive UTF-8 strings given their byte lengths.
class Strings {
 public:
  Strings(uintptr_t blob, uintptr_t lens)
      : p_(reinterpret_cast<const char*>(blob)),
        lens_(reinterpret_cast<const uint32_t*>(lens)) {}
  std::string_view Next() {
    std::string_view s(p_, lens_[i_++]);
    p_ += s.size();
    return s;
  }

 private:
  const char* p_;
  const uint32_t* lens_;
  size_t i_ = 0;
};

class ExportBuilder {
 public:
  // Resources: `count` URLs. Input index -> core id is kept for frames.
  int32_t loadResources(uintptr_t blob, uintptr_t lens, uint32_t count) {
    Strings s(blob, lens);
    std::vector<uint32_t> ids(count);
    for (uint32_t i = 0; i < count; ++i) {
      ResourceId id = trace_.InternResource(s.Next());
      if (id.is_none()) return int32_t(Status::kTableFull);
      ids[i] = id.value;
    }
    resource_map_.insert(resource_map_.end(), ids.begin(), ids.end());
    return 0;
  }

  // Frames: names in the blob; u32 rows [resourceId|NONE, line, column]
  // (1-based, 0 = absent) in W3C input numbering.
  int32_t loadFrames(uintptr_t blob, uintptr_t lens, uintptr_t rows,
                     uint32_t count) {
    Strings s(blob, lens);
    auto* r = reinterpret_cast<const uint32_t*>(rows);
    std::vector<uint32_t> ids(count);
    for (uint32_t i = 0; i < count; ++i, r += 3) {
      ResourceId res = ResourceId::None();
      if (r[0] != kNone) {
        if (r[0] >= resource_map_.size())
          return int32_t(Status::kUnknownResource);
        res = ResourceId(resource_map_[r[0]]);
      }
      StringId name = trace_.names().Intern(s.Next());
      if (name.is_none()) return int32_t(Status::kTableFull);
      FrameId out;
      Status st = trace_.InternFrame(name, res, r[1], r[2], &out);
      if (st != Status::kOk) return int32_t(st);
      ids[i] = out.value;
    }
    frame_map_.insert(frame_map_.end(), ids.begin(), ids.end());
    return 0;
  }

  // Stacks: u32 rows [frameId, parentId|NONE]; a parent must come first.
  int32_t loadStacks(uintptr_t rows, uint32_t count) {
    auto* r = reinterpret_cast<const uint32_t*>(rows);
    size_t base = stack_map_.size();
    for (uint32_t i = 0; i < count; ++i, r += 2) {
      if (r[0] >= frame_map_.size()) return Undo(Status::kUnknownFrame, base);
      StackId parent = StackId::None();
      if (r[1] != kNone) {
        if (r[1] >= stack_map_.size() - 1)
          return Undo(Status::kUnknownParent, base);
        parent = StackId(stack_map_[r[1] + 1]);
      }
      StackId out;
      Status st = trace_.InternStack(FrameId(frame_map_[r[0]]), parent, &out);
      if (st != Status::kOk) return Undo(st, base);
      stacks_identity_ &= out.value == stack_map_.size() - 1;
      stack_map_.push_back(out.value);
    }
    return 0;
  }

  // Samples are written by JS straight into the trace's sample storage, so
  // the 16 bytes per sample are written once and never copied:
  // reserveSamples(n) appends up to n rows that are contiguous in Wasm
  // memory and returns their address (reservedSamples() says how many); JS
  // fills each row as f64 [timestamp ms, W3C stackId or -1], which is a
  // Sample whose stack field still holds a double; commitSamples() validates
  // the rows in time order and converts each stack in place. On error (or
  // a reservation never committed) every reserved row is dropped.
  uintptr_t reserveSamples(uint32_t n) {
    DropReserved();
    SampleBuffer& samples = trace_.mutable_samples();
    reserved_at_ = samples.size();
    reserved_ = samples.AppendSpan(n);
    return reinterpret_cast<uintptr_t>(reserved_.data);
  }
  uint32_t reservedSamples() const { return uint32_t(reserved_.size); }

  int32_t commitSamples() {
    static_assert(sizeof(Sample) == 16 && offsetof(Sample, stack) == 8 &&
                      offsetof(Sample, reserved) == 12,
                  "JS writes a sample as two f64: [timestamp, stack]");
    const SampleBuffer& samples = trace_.samples();
    double prev = reserved_at_ ? samples[reserved_at_ - 1].timestamp : 0;
    // Locals, not members: stores into the rows would otherwise force the
    // compiler to reload every member per row.
    Sample* rows = reserved_.data;
    const size_t n = reserved_.size;
    const uint32_t* map = stack_map_.data();
    const bool identity = stacks_identity_;
    const double keys = double(stack_map_.size());
    for (size_t i = 0; i < n; ++i) {
      char* row = reinterpret_cast<char*>(&rows[i]);
      double ts = rows[i].timestamp, st;
      std::memcpy(&st, row + 8, sizeof st);
      // A stack's key is st + 1, so "no stack" (-1) is key 0 and needs no
      // branch of its own. Adding 2^52 puts an integral key in the low bits
      // of the double, which is how the key is read: double -> integer
      // conversions cost Wasm (trap guards) several times this. Subtracting
      // 2^52 back tests that st was an integer. With prev >= 0, one
      // comparison accepts exactly the finite, non-negative, in-order
      // times. The rare failure is classified out of line.
      double key = st + 1;
      double shifted = key + kTwoPow52;
      uint64_t bits;
      std::memcpy(&bits, &shifted, sizeof bits);
      uint32_t k = static_cast<uint32_t>(bits);
      if (!(ts >= prev && ts <= std::numeric_limits<double>::max() &&
            key >= 0 && key < keys && shifted - kTwoPow52 - 1 == st))
        return DropReserved(SampleError(ts, prev));
      // Key 0 -> None (all ones) either way; then reserved = 0.
      uint64_t stack = identity ? uint32_t(k - 1) : map[k];
      std::memcpy(row + 8, &stack, sizeof stack);  // Wasm is little-endian
      prev = ts;
    }
    reserved_ = {};
    has_profile_ = true;
    return 0;
  }

  // Marks: blob holds (name, info JSON) pairs; f64 timestamps (ms).
  int32_t addMarks(uintptr_t blob, uintptr_t lens, uintptr_t times,
                   uint32_t count) {
    Strings s(blob, lens);
    auto* t = reinterpret_cast<const double*>(times);
    for (uint32_t i = 0; i < count; ++i) {
      if (!std::isfinite(t[i])) return int32_t(Status::kInvalidTimestamp);
    }
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name = s.Next(), info = s.Next();
      input_.marks.push_back(
          ExportMark{std::string(name), t[i], std::string(info)});
    }
    return 0;
  }

  // Traces: (name, info JSON) pairs; f64 rows [start ms, duration ms].
  int32_t addTraces(uintptr_t blob, uintptr_t lens, uintptr_t times,
                    uint32_t count) {
    Strings s(blob, lens);
    auto* t = reinterpret_cast<const double*>(times);
    for (uint32_t i = 0; i < count; ++i) {
      if (!std::isfinite(t[2 * i]) || !std::isfinite(t[2 * i + 1]) ||
          t[2 * i + 1] < 0)
        return int32_t(Status::kInvalidArgument);
    }
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name = s.Next(), info = s.Next();
      input_.traces.push_back(ExportTrace{std::string(name), t[2 * i],
                                          t[2 * i + 1], std::string(info)});
    }
    return 0;
  }

  // Aggregates: (name, result JSON) pairs.
  int32_t addAggregates(uintptr_t blob, uintptr_t lens, uint32_t count) {
    Strings s(blob, lens);
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view name = s.Next(), json = s.Next();
      input_.aggregates.push_back(
          ExportAggregate{std::string(name), std::string(json)});
    }
    return 0;
  }

  // The probes part straight from the recorder's last window, which must
  // still be window `generation`: `parts` are WindowPart bits; blob holds the
  // info JSON text of each of `count` info slots ("" = none).
  int32_t useWindow(double generation, uint32_t parts, uintptr_t blob,
                    uintptr_t lens, uint32_t count) {
    const Recorder& rec = bind::ProbesRecorder();
    if (rec.last_report().generation != generation)
      return int32_t(Status::kInvalidArgument);
    Strings s(blob, lens);
    std::vector<std::string> infos(count);
    for (uint32_t i = 0; i < count; ++i) infos[i] = std::string(s.Next());
    AddWindowReport(rec.last_report(), rec.names(), parts, infos, &input_);
    return 0;
  }

  // Process/thread naming: blob holds (process name, thread name).
  void setThread(double pid, double tid, uintptr_t blob, uintptr_t lens) {
    Strings s(blob, lens);
    ThreadNaming& t = options_.thread;
    t.pid = static_cast<int64_t>(pid);
    t.tid = static_cast<int64_t>(tid);
    t.process_name = std::string(s.Next());
    t.thread_name = std::string(s.Next());
  }

  // Exports the trace a TraceSession recorded, in place (no copy, no
  // reload): `handle` is JsSession::handle(), i.e. the Session's address.
  // The session must outlive write(); JS holds it for the whole call.
  void useSession(uintptr_t handle) {
    session_trace_ = &reinterpret_cast<Session*>(handle)->trace();
  }

  // `format` is an ExportFormat id (exportFormats()).
  int32_t write(int32_t format) {
    DropReserved();
    input_.profile = session_trace_ ? session_trace_
                     : has_profile_ ? &trace_
                                    : nullptr;
    return int32_t(WriteExport(format, input_, options_, out_));
  }

  double size() const { return double(out_.size()); }
  uint32_t chunkCount() const { return uint32_t(out_.chunk_count()); }
  uintptr_t chunkPtr(uint32_t i) const {
    return reinterpret_cast<uintptr_t>(out_.chunk_data(i));
  }
  uint32_t chunkLength(uint32_t i) const {
    return uint32_t(out_.chunk_length(i));
  }
  void clearOutput() { out_.Clear(); }

 private:
  // The first failing rule for a rejected sample row, in the order the
  // rules are documented: a valid time, in order, then a known stack.
  static Status SampleError(double ts, double prev) {
    if (!std::isfinite(ts) || ts < 0) return Status::kInvalidTimestamp;
    if (ts < prev) return Status::kTimestampOutOfOrder;
    return Status::kUnknownStack;
  }
  int32_t DropReserved(Status s = Status::kOk) {
    if (reserved_.size) trace_.mutable_samples().Truncate(reserved_at_);
    reserved_ = {};
    return int32_t(s);
  }
  int32_t Undo(Status s, size_t base) {
    stack_map_.resize(base);   // rows already interned stay (harmless)
    stacks_identity_ = false;  // they took core ids the map no longer has
    return int32_t(s);
  }

  ProfilerTrace trace_;
  ExportInput input_;
  ExportOptions options_;
  ByteSink out_;
  bool has_profile_ = false;
  SampleBuffer::Span reserved_{};  // rows JS is filling, not yet committed
  size_t reserved_at_ = 0;         // index of reserved_.data[0]
  const ProfilerTrace* session_trace_ = nullptr;  // not owned
  std::vector<uint32_t> resource_map_, frame_map_;
  // W3C stack id + 1 -> core StackId; entry 0 (W3C "no stack") is None.
  std::vector<uint32_t> stack_map_{StackId::None().value};
  // stack_map_[k] == k - 1 for every k (no W3C row was a duplicate): the
  // common case, where loading samples needs no lookup.
  bool stacks_identity_ = true;
};

// The format registry as plain objects, in its order.
val ExportFormatList() {
  val list = val::array();
  for (const ExportFormat& f : ExportFormats()) {
    val o = val::object();
    o.set("id", f.id);
    o.set("key", std::string(f.key));
    o.set("name", std::string(f.name));
    o.set("fileStem", std::string(f.file_stem));
    o.set("extension", std::string(f.extension));
    o.set("mimeType", std::string(f.mime_type));
    list.call<void>("push", o);
  }
  return list;
}

}  // namespace

EMSCRIPTEN_BINDINGS(export) {
  function("exportFormats", &ExportFormatList);
  class_<ExportBuilder>("ExportBuilder")
      .constructor<>()
      .function("loadResources", &ExportBuilder::loadResources)
      .function("loadFrames", &ExportBuilder::loadFrames)
      .function("loadStacks", &ExportBuilder::loadStacks)
      .function("reserveSamples", &ExportBuilder::reserveSamples)
      .function("reservedSamples", &ExportBuilder::reservedSamples)
      .function("commitSamples", &ExportBuilder::commitSamples)
      .function("addMarks", &ExportBuilder::addMarks)
      .function("addTraces", &ExportBuilder::addTraces)
      .function("addAggregates", &ExportBuilder::addAggregates)
      .function("useWindow", &ExportBuilder::useWindow)
      .function("setThread", &ExportBuilder::setThread)
      .function("useSession", &ExportBuilder::useSession)
      .function("write", &ExportBuilder::write)
      .function("size", &ExportBuilder::size)
      .function("chunkCount", &ExportBuilder::chunkCount)
      .function("chunkPtr", &ExportBuilder::chunkPtr)
      .function("chunkLength", &ExportBuilder::chunkLength)
      .function("clearOutput", &ExportBuilder::clearOutput);
}
