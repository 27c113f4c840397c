#include "export/summary.h"

#include <algorithm>
#include <unordered_map>

#include "base/hash.h"

namespace webprof {
namespace {

// Row ids per frame: frames equal in (name, resource, line) share a row.
std::vector<uint32_t> RowOfFrames(const ProfilerTrace& trace,
                                  std::vector<FrameId>* first_frame) {
  struct Key {
    uint32_t name, resource, line;
    bool operator==(const Key& o) const {
      return name == o.name && resource == o.resource && line == o.line;
    }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return size_t(HashCombine(HashCombine(k.name, k.resource), k.line));
    }
  };
  const auto& frames = trace.frames().rows();
  std::unordered_map<Key, uint32_t, KeyHash> rows;
  rows.reserve(frames.size());
  std::vector<uint32_t> row_of(frames.size());
  for (uint32_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    Key key{f.name.value, f.resource.value, f.line};
    auto it = rows.emplace(key, uint32_t(first_frame->size())).first;
    if (it->second == first_frame->size()) first_frame->push_back(FrameId(i));
    row_of[i] = it->second;
  }
  return row_of;
}

}  // namespace

TraceSummary SummarizeTrace(const ProfilerTrace& trace, size_t top) {
  TraceSummary out;
  const SampleBuffer& samples = trace.samples();
  const StackTable& stacks = trace.stacks();
  out.samples = uint32_t(samples.size());
  if (samples.empty()) return out;

  std::vector<uint32_t> per_stack(stacks.size(), 0);
  double first = samples[0].timestamp, last = first;
  samples.ForEach([&](const Sample& s) {
    first = std::min(first, s.timestamp);
    last = std::max(last, s.timestamp);
    if (s.stack.is_none() || !stacks.Contains(s.stack)) return;
    ++per_stack[s.stack.value];
    ++out.with_stack;
  });
  out.duration_ms = last - first;

  std::vector<FrameId> first_frame;
  std::vector<uint32_t> row_of = RowOfFrames(trace, &first_frame);
  std::vector<SummaryRow> rows(first_frame.size());
  for (size_t r = 0; r < rows.size(); ++r) rows[r].frame = first_frame[r];
  // stamp[r] == s + 1: stack s already counted row r.
  std::vector<uint32_t> stamp(rows.size(), 0);
  for (uint32_t s = 0; s < stacks.size(); ++s) {
    uint32_t n = per_stack[s];
    if (n == 0) continue;
    rows[row_of[stacks.Get(StackId(s)).frame.value]].self += n;
    for (StackId id(s); !id.is_none(); id = stacks.Get(id).parent) {
      uint32_t r = row_of[stacks.Get(id).frame.value];
      if (stamp[r] == s + 1) continue;
      stamp[r] = s + 1;
      rows[r].total += n;
    }
  }
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [](const SummaryRow& r) { return r.total == 0; }),
             rows.end());
  std::stable_sort(
      rows.begin(), rows.end(), [](const SummaryRow& a, const SummaryRow& b) {
        return a.self != b.self ? a.self > b.self : a.total > b.total;
      });
  if (rows.size() > top) rows.resize(top);
  out.rows = std::move(rows);
  return out;
}

}  // namespace webprof
