#include "export/format_perfetto.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/time_units.h"
#include "export/json_check.h"
#include "export/proto_writer.h"

namespace webprof {
namespace {

class PerfettoEncoder {
 public:
  PerfettoEncoder(const ExportInput& in, const PerfettoOptions& o,
                  ByteSink& out)
      : in_(in), o_(o), w_(&out) {}

  void Run() {
    AssignLanes();
    WriteClockSnapshot();
    WriteTracks();
    WriteThreadAndInternedData();
    if (in_.profile) WriteSamples();
    WriteTraceSlices();
    WriteMarksAndAggregates();
  }

 private:
  // Track uuids: process, thread (lane 0), then one per extra lane.
  uint64_t ProcessUuid() const { return 0x5e0000ull + uint64_t(o_.thread.pid); }
  uint64_t LaneUuid(size_t lane) const {
    return 0x7e0000ull + uint64_t(o_.thread.tid) * 1024 + lane;
  }

  void BeginPacket(uint32_t flags) {
    w_.BeginNested(pf::kTracePacket);
    w_.Varint(pf::kTrustedPacketSequenceId, o_.sequence_id);
    if (flags) w_.Varint(pf::kSequenceFlags, flags);
  }
  void EndPacket() { w_.EndNested(); }

  int64_t FirstTimeNs() const {
    int64_t t = INT64_MAX;
    if (in_.profile && !in_.profile->samples().empty())
      t = MsToNs(in_.profile->samples()[0].timestamp);
    for (const auto& r : in_.traces) t = std::min(t, MsToNs(r.start_ms));
    for (const auto& m : in_.marks) t = std::min(t, MsToNs(m.timestamp_ms));
    return t == INT64_MAX ? 0 : t;
  }

  void WriteClockSnapshot() {
    // First packet of the sequence: CLEARED, or interned data is dropped.
    BeginPacket(pf::kCleared);
    w_.BeginNested(pf::kClockSnapshot);
    int64_t base = std::max<int64_t>(FirstTimeNs(), 1);
    for (uint32_t clock : {pf::kBoottime, pf::kMonotonic}) {
      w_.BeginNested(1);                          // ClockSnapshot.clocks
      w_.Varint(1, clock);                        // Clock.clock_id
      w_.Varint(2, static_cast<uint64_t>(base));  // Clock.timestamp
      w_.EndNested();
    }
    w_.EndNested();
    EndPacket();
  }

  void WriteTracks() {
    const ThreadNaming& t = o_.thread;
    BeginPacket(0);
    w_.BeginNested(pf::kTrackDescriptor);
    w_.Varint(1, ProcessUuid());  // uuid
    w_.BeginNested(3);            // process
    w_.Int64(1, t.pid);
    w_.Bytes(6, t.process_name);  // process_name
    w_.EndNested();
    w_.EndNested();
    EndPacket();
    for (size_t lane = 0; lane < lane_count_; ++lane) {
      BeginPacket(0);
      w_.BeginNested(pf::kTrackDescriptor);
      w_.Varint(1, LaneUuid(lane));
      if (lane == 0) {
        w_.BeginNested(4);  // thread
        w_.Int64(1, t.pid);
        w_.Int64(2, t.tid);
        w_.Bytes(5, t.thread_name);
        w_.EndNested();
      } else {
        w_.Varint(5, LaneUuid(0));  // parent_uuid
        w_.Bytes(2, t.thread_name + " traces " + std::to_string(lane + 1));
      }
      w_.EndNested();
      EndPacket();
    }
  }

  uint64_t EventNameIid(const std::string& name) {
    auto it = event_names_.find(name);
    if (it != event_names_.end()) return it->second;
    uint64_t iid = event_names_.size() + 1;
    event_names_.emplace(name, iid);
    event_name_order_.push_back(&event_names_.find(name)->first);
    return iid;
  }

  void WriteThreadAndInternedData() {
    for (const auto& r : in_.traces) EventNameIid(r.name);
    for (const auto& m : in_.marks) EventNameIid(m.name);
    if (!in_.aggregates.empty()) EventNameIid(kAggregatesName);

    BeginPacket(0);
    w_.BeginNested(pf::kThreadDescriptor);
    w_.Int64(1, o_.thread.pid);
    w_.Int64(2, o_.thread.tid);
    w_.Bytes(5, o_.thread.thread_name);
    const ProfilerTrace* p = in_.profile;
    int64_t ref_us =
        p && !p->samples().empty() ? MsToWholeUs(p->samples()[0].timestamp) : 0;
    w_.Int64(6, ref_us);  // reference_timestamp_us
    w_.EndNested();

    w_.BeginNested(pf::kInternedData);
    for (size_t i = 0; i < event_name_order_.size(); ++i) {
      w_.BeginNested(2);  // event_names: EventName {iid=1, name=2}
      w_.Varint(1, i + 1);
      w_.Bytes(2, *event_name_order_[i]);
      w_.EndNested();
    }
    if (p) WriteProfileInterning(*p);
    w_.EndNested();
    EndPacket();
  }

  void WriteProfileInterning(const ProfilerTrace& p) {
    const uint32_t names = p.names().size(), frames = p.frames().size(),
                   stacks = p.stacks().size();
    auto interned_string = [&](uint64_t iid, std::string_view s) {
      w_.BeginNested(5);  // function_names: InternedString {iid=1, str=2}
      w_.Varint(1, iid);
      w_.Bytes(2, s);
      w_.EndNested();
    };
    for (uint32_t i = 0; i < names; ++i)
      interned_string(i + 1, p.names().Get(StringId(i)));
    interned_string(names + 1, "(program)");
    interned_string(names + 2, "(truncated)");

    w_.BeginNested(19);  // mappings: one dummy Mapping {iid=1}
    w_.Varint(1, 1);
    w_.EndNested();

    auto frame = [&](uint64_t iid, uint64_t name_iid) {
      w_.BeginNested(6);  // frames: Frame {iid, function_name_id, mapping_id}
      w_.Varint(1, iid);
      w_.Varint(2, name_iid);
      w_.Varint(3, 1);
      w_.EndNested();
    };
    for (uint32_t i = 0; i < frames; ++i)
      frame(i + 1, uint64_t{p.frames().Get(FrameId(i)).name.value} + 1);
    frame(frames + 1, names + 1);
    frame(frames + 2, names + 2);

    // callstacks: Callstack {iid=1, frame_ids=2 outermost first, unpacked};
    // iid = stack index + 1, for the stacks samples use (see
    // PerfettoOptions::max_callstack_frames).
    std::vector<bool> used(stacks, false);
    const SampleBuffer& samples = p.samples();
    for (size_t i = 0; i < samples.size(); ++i) {
      StackId id = samples[i].stack;
      if (!id.is_none() && id.value < stacks) used[id.value] = true;
    }
    const size_t cap = std::max<uint32_t>(o_.max_callstack_frames, 2);
    std::vector<uint64_t> path;
    for (uint32_t s = 0; s < stacks; ++s) {
      if (!used[s]) continue;
      path.clear();
      StackId at(s);
      for (; !at.is_none() && path.size() < cap; at = p.stacks().Get(at).parent)
        path.push_back(uint64_t{p.stacks().Get(at).frame.value} + 1);
      if (!at.is_none()) path.back() = frames + 2;  // "(truncated)" root
      w_.BeginNested(7);
      w_.Varint(1, s + 1);
      for (size_t k = path.size(); k-- > 0;) w_.Varint(2, path[k]);
      w_.EndNested();
    }
    w_.BeginNested(7);
    w_.Varint(1, stacks + 1);
    w_.Varint(2, frames + 1);
    w_.EndNested();
  }

  void WriteSamples() {
    const SampleBuffer& s = in_.profile->samples();
    const uint64_t program_iid = in_.profile->stacks().size() + 1;
    size_t per = o_.samples_per_packet ? o_.samples_per_packet : 1000;
    int64_t prev_us = s.empty() ? 0 : MsToWholeUs(s[0].timestamp);
    for (size_t begin = 0; begin < s.size(); begin += per) {
      size_t end = std::min(s.size(), begin + per);
      BeginPacket(pf::kNeedsIncrementalState);
      w_.BeginNested(pf::kStreamingProfilePacket);
      for (size_t i = begin; i < end; ++i)
        w_.Varint(1, s[i].stack.is_none() ? program_iid
                                          : uint64_t{s[i].stack.value} + 1);
      // Deltas are cumulative across packets, starting at the
      // ThreadDescriptor's reference_timestamp_us.
      for (size_t i = begin; i < end; ++i) {
        int64_t us = MsToWholeUs(s[i].timestamp);
        w_.Int64(2, us - prev_us);
        prev_us = us;
      }
      w_.EndNested();
      EndPacket();
    }
  }

  void AssignLanes() {
    order_.resize(in_.traces.size());
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    // Parents before children: earlier start first, longer first on ties.
    std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      const ExportTrace &x = in_.traces[a], &y = in_.traces[b];
      int64_t xs = MsToNs(x.start_ms), ys = MsToNs(y.start_ms);
      if (xs != ys) return xs < ys;
      return MsToNs(x.duration_ms) > MsToNs(y.duration_ms);
    });
    std::vector<std::vector<int64_t>> open;  // per lane: stack of end times
    lane_of_.assign(in_.traces.size(), 0);
    for (size_t idx : order_) {
      const ExportTrace& t = in_.traces[idx];
      int64_t start = MsToNs(t.start_ms), end = start + EndOffset(t);
      size_t lane = 0;
      for (;; ++lane) {
        if (lane == open.size()) open.emplace_back();
        auto& st = open[lane];
        while (!st.empty() && st.back() <= start) st.pop_back();
        if (st.empty() || st.back() >= end) break;
      }
      open[lane].push_back(end);
      lane_of_[idx] = lane;
    }
    lane_count_ = std::max<size_t>(1, open.size());
  }
  static int64_t EndOffset(const ExportTrace& t) {
    return std::max<int64_t>(0, MsToNs(t.duration_ms));
  }

  // `trusted`: JSON the core wrote itself (not checked again).
  void Annotation(std::string_view name, std::string_view json,
                  bool trusted = false) {
    w_.BeginNested(4);   // TrackEvent.debug_annotations
    w_.Bytes(10, name);  // DebugAnnotation.name
    if (trusted || IsValidJsonValue(json)) {
      w_.Bytes(9, json);  // legacy_json_value
    } else {
      w_.Bytes(6, json);  // string_value
    }
    w_.EndNested();
  }

  void Event(int64_t ts_ns, uint32_t type, size_t lane, uint64_t name_iid,
             std::string_view info) {
    BeginPacket(pf::kNeedsIncrementalState);
    w_.Int64(pf::kTimestamp, ts_ns);
    w_.BeginNested(pf::kTrackEvent);
    w_.Varint(9, type);                     // type
    w_.Varint(11, LaneUuid(lane));          // track_uuid
    if (name_iid) w_.Varint(10, name_iid);  // name_iid (not on SLICE_END)
    if (!info.empty()) Annotation("info", info);
    w_.EndNested();
    EndPacket();
  }

  void WriteTraceSlices() {
    // Per lane, replay begin/end in time order with a stack of open ends.
    for (size_t lane = 0; lane < lane_count_; ++lane) {
      std::vector<int64_t> open;
      auto close_until = [&](int64_t t) {
        while (!open.empty() && open.back() <= t) {
          Event(open.back(), pf::kSliceEnd, lane, 0, {});
          open.pop_back();
        }
      };
      for (size_t idx : order_) {
        if (lane_of_[idx] != lane) continue;
        const ExportTrace& t = in_.traces[idx];
        int64_t start = MsToNs(t.start_ms);
        close_until(start);
        Event(start, pf::kSliceBegin, lane, EventNameIid(t.name), t.info_json);
        open.push_back(start + EndOffset(t));
      }
      close_until(INT64_MAX);
    }
  }

  void WriteMarksAndAggregates() {
    int64_t last = 0;
    for (const auto& m : in_.marks) {
      int64_t ts = MsToNs(m.timestamp_ms);
      last = std::max(last, ts);
      Event(ts, pf::kInstant, 0, EventNameIid(m.name), m.info_json);
    }
    if (in_.aggregates.empty()) return;
    for (const auto& t : in_.traces)
      last = std::max(last, MsToNs(t.start_ms) + EndOffset(t));
    if (in_.profile && !in_.profile->samples().empty())
      last = std::max(last, MsToNs(in_.profile->samples().back().timestamp));
    BeginPacket(pf::kNeedsIncrementalState);
    w_.Int64(pf::kTimestamp, last);
    w_.BeginNested(pf::kTrackEvent);
    w_.Varint(9, pf::kInstant);
    w_.Varint(11, LaneUuid(0));
    w_.Varint(10, EventNameIid(kAggregatesName));
    for (const auto& a : in_.aggregates)
      Annotation(a.name, a.result_json, a.trusted);
    w_.EndNested();
    EndPacket();
  }

  static constexpr const char* kAggregatesName = "webprof aggregates";

  const ExportInput& in_;
  const PerfettoOptions& o_;
  ProtoWriter w_;
  std::unordered_map<std::string, uint64_t> event_names_;
  std::vector<const std::string*> event_name_order_;
  std::vector<size_t> order_;    // traces sorted by (start, -duration)
  std::vector<size_t> lane_of_;  // trace index -> lane
  size_t lane_count_ = 1;
};

}  // namespace

void WritePerfettoTrace(const ExportInput& in, const PerfettoOptions& opts,
                        ByteSink& out) {
  PerfettoEncoder(in, opts, out).Run();
}

void WritePerfettoFormat(const ExportInput& in, const ExportOptions& o,
                         ByteSink& out) {
  PerfettoOptions po;
  po.thread = o.thread;
  WritePerfettoTrace(in, po, out);
}

}  // namespace webprof
