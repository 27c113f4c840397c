#include "merge/profile_merger.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/time_units.h"
#include "export/format_registry.h"
#include "import/chrome_trace.h"
#include "import/cpuprofile.h"
#include "import/gecko_profile.h"
#include "import/w3c_trace.h"
#include "trace/session.h"

namespace webprof {
namespace {

constexpr uint32_t kUnresolved = 0xFFFFFFFEu;  // never an id (caps < it)
constexpr uint32_t kNoMap = 0xFFFFFFFFu;

// The file name of a URL's path: what a bare map key ("app.js") matches.
std::string_view FileName(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  size_t slash = url.rfind('/');
  return slash == std::string_view::npos ? url : url.substr(slash + 1);
}

SessionOptions InputSession() {
  // One input's samples; no cap below the importers' own.
  return SessionOptions{1, 0xFFFFFFFFu, 0};
}

}  // namespace

struct ProfileMerger::MapEntry {
  SourceMap map;
  std::unique_ptr<ScriptSymbolicator> symbolicator;
};

ProfileMerger::ProfileMerger() = default;
ProfileMerger::~ProfileMerger() = default;

Status ProfileMerger::AddSourceMap(std::string_view script,
                                   std::string_view map_json,
                                   std::string_view map_url,
                                   std::string* error) {
  auto entry = std::make_unique<MapEntry>();
  Status st = entry->map.Parse(map_json, map_url, error);
  if (st != Status::kOk) return st;
  entry->symbolicator = std::make_unique<ScriptSymbolicator>(&entry->map);
  maps_by_key_[std::string(script)] = maps_.size();
  maps_.push_back(std::move(entry));
  return Status::kOk;
}

Status ProfileMerger::AddInput(std::string_view text, std::string_view name,
                               MergeInputInfo* info, std::string* error) {
  *info = MergeInputInfo{};
  error->clear();
  info->format = DetectProfileFormat(text);
  std::string why;
  Status st = Status::kOk;
  switch (info->format) {
    case ProfileFormat::kCpuProfile: {
      Session s(InputSession());
      CpuProfileImportInfo got;
      st = ImportCpuProfile(text, CpuProfileImportOptions{}, &s, &got, &why);
      if (st == Status::kOk) AddTrace(s.trace(), got.end_ms, info);
      break;
    }
    case ProfileFormat::kChromeTrace: {
      std::vector<ChromeTraceProfile> profiles;
      ChromeTraceImportInfo got;
      st = ImportChromeTrace(text, ChromeTraceImportOptions{}, &profiles, &got,
                             &why);
      // One thread at a time, each session dropped once folded.
      for (ChromeTraceProfile& p : profiles) {
        AddTrace(p.session->trace(), p.end_ms, info);
        p.session.reset();
      }
      break;
    }
    case ProfileFormat::kW3CTrace: {
      Session s(InputSession());
      W3CTraceImportInfo got;
      st = ImportW3CTrace(text, &s, &got, &why);
      if (st == Status::kOk)
        AddTrace(s.trace(), std::numeric_limits<double>::quiet_NaN(), info);
      break;
    }
    case ProfileFormat::kGeckoProfile: {
      Session s(InputSession());
      GeckoImportInfo got;
      st = ImportGeckoProfile(text, GeckoImportOptions{}, &s, &got, &why);
      if (st == Status::kOk)
        AddTrace(s.trace(), std::numeric_limits<double>::quiet_NaN(), info);
      break;
    }
    case ProfileFormat::kUnknown:
      st = Status::kInvalidArgument;
      why =
          "not a profile webprof reads (W3C ProfilerTrace JSON, Chrome trace "
          "JSON, .cpuprofile or Gecko profile JSON)";
      break;
  }
  if (st != Status::kOk) {
    *error = std::string(name) + ": " + why;
    return st;
  }
  ++totals_.inputs;
  return Status::kOk;
}

void ProfileMerger::AddTrace(const ProfilerTrace& in, double end_ms,
                             MergeInputInfo* info) {
  const SampleBuffer& s = in.samples();
  const size_t n = s.size();
  if (n == 0) return;
  stack_map_.assign(in.stacks().size(), kUnresolved);
  frame_map_.assign(in.frames().size(), kUnresolved);
  resource_map_.assign(in.resources().size(), kUnresolved);
  gaps_.clear();

  int64_t total = 0;
  int64_t at = MsToNs(s[0].timestamp);
  for (size_t i = 0; i + 1 < n; ++i) {
    int64_t next = MsToNs(s[i + 1].timestamp);
    int64_t gap = std::max<int64_t>(0, next - at);  // sessions are ordered
    at = next;
    gaps_.push_back(gap);
    Add(Resolve(in, s[i].stack), 1, gap);
    total += gap;
  }
  int64_t last = 0;
  if (std::isfinite(end_ms) && MsToNs(end_ms) > at) {
    last = MsToNs(end_ms) - at;
  } else if (!gaps_.empty()) {
    auto mid = gaps_.begin() + gaps_.size() / 2;
    std::nth_element(gaps_.begin(), mid, gaps_.end());
    last = *mid;
  }
  Add(Resolve(in, s[n - 1].stack), 1, last);
  total += last;

  ++totals_.profiles;
  totals_.samples += n;
  totals_.time_ns += total;
  ++info->profiles;
  info->samples += n;
  info->time_ns += total;
}

void ProfileMerger::Add(StackId s, uint64_t count, int64_t ns) {
  SampleWeight& w = s.is_none() ? stackless_ : weights_[s.value];
  w.count += count;
  w.time_ns += ns;
}

StackId ProfileMerger::Resolve(const ProfilerTrace& in, StackId s) {
  if (s.is_none() || s.value >= stack_map_.size()) return StackId::None();
  if (stack_map_[s.value] != kUnresolved) return StackId(stack_map_[s.value]);
  // Up to the first ancestor already mapped; parents come before children
  // in every trace (stack.h), so the walk ends.
  chain_.clear();
  for (StackId k = s; !k.is_none() && stack_map_[k.value] == kUnresolved;
       k = in.stacks().Get(k).parent)
    chain_.push_back(k.value);
  for (size_t i = chain_.size(); i-- > 0;) {
    const Stack& row = in.stacks().Get(StackId(chain_[i]));
    StackId parent = row.parent.is_none()
                         ? StackId::None()
                         : StackId(stack_map_[row.parent.value]);
    FrameId f = MapFrame(in, row.frame);
    StackId out = parent;  // a frame past a cap: time goes to the caller
    if (!f.is_none()) {
      StackId got;
      if (merged_.InternStack(f, parent, &got) == Status::kOk) out = got;
    }
    if (!out.is_none() && out.value >= weights_.size())
      weights_.resize(out.value + 1);
    stack_map_[chain_[i]] = out.value;
  }
  return StackId(stack_map_[s.value]);
}

const ProfileMerger::MapEntry* ProfileMerger::MapFor(const ProfilerTrace& in,
                                                     ResourceId r) {
  if (maps_.empty() || r.is_none()) return nullptr;
  uint32_t& slot = resource_map_[r.value];
  if (slot == kUnresolved) {
    slot = kNoMap;
    std::string_view url = in.resource_url(r);
    auto it = maps_by_key_.find(std::string(url));
    if (it == maps_by_key_.end())
      it = maps_by_key_.find(std::string(FileName(url)));
    if (it != maps_by_key_.end()) slot = static_cast<uint32_t>(it->second);
  }
  return slot == kNoMap ? nullptr : maps_[slot].get();
}

FrameId ProfileMerger::MapFrame(const ProfilerTrace& in, FrameId f) {
  uint32_t& slot = frame_map_[f.value];
  if (slot != kUnresolved) return FrameId(slot);
  const Frame& fr = in.frames().Get(f);
  RawFrame raw{
      in.names().Get(fr.name),
      fr.resource.is_none() ? std::string_view() : in.resource_url(fr.resource),
      fr.line, fr.column};
  const MapEntry* m = MapFor(in, fr.resource);
  OriginalFrame orig;
  if (m && fr.line && fr.column &&
      m->symbolicator->Resolve(fr.line, fr.column, &orig)) {
    if (orig.has_name) raw.name = orig.name;
    raw.resource = m->map.sources()[orig.source];
    raw.line = orig.line;
    raw.column = orig.column;
  }
  slot = merged_.InternFrame(raw).value;
  return FrameId(slot);
}

uint32_t ProfileMerger::weighted_stacks() const {
  uint32_t n = stackless_.count ? 1 : 0;
  for (const SampleWeight& w : weights_) n += w.count ? 1 : 0;
  return n;
}

const ExportInput& ProfileMerger::ExportView() {
  SampleBuffer& out = merged_.mutable_samples();
  out.Clear();
  view_weights_.clear();
  int64_t at = 0;
  auto emit = [&](StackId s, const SampleWeight& w) {
    out.Append(Sample{static_cast<double>(at) / 1e6, s});
    view_weights_.push_back(w);
    at += w.time_ns;
  };
  if (stackless_.count) emit(StackId::None(), stackless_);
  // Depth first over the stack tree (children as CSR; a parent's id is
  // below its children's), so siblings' samples are next to each other.
  const uint32_t n = merged_.stacks().size();
  std::vector<uint32_t> first(n + 2, 0), kids(n);
  auto slot = [&](uint32_t s) {
    StackId p = merged_.stacks().Get(StackId(s)).parent;
    return p.is_none() ? n : p.value;
  };
  for (uint32_t s = 0; s < n; ++s) ++first[slot(s) + 1];
  for (uint32_t i = 0; i <= n; ++i) first[i + 1] += first[i];
  std::vector<uint32_t> fill(first.begin(), first.end() - 1);
  for (uint32_t s = 0; s < n; ++s) kids[fill[slot(s)]++] = s;
  std::vector<uint32_t> todo;
  for (uint32_t k = first[n + 1]; k-- > first[n];) todo.push_back(kids[k]);
  while (!todo.empty()) {
    uint32_t s = todo.back();
    todo.pop_back();
    if (s < weights_.size() && weights_[s].count) emit(StackId(s), weights_[s]);
    for (uint32_t k = first[s + 1]; k-- > first[s];) todo.push_back(kids[k]);
  }
  view_ = ExportInput{};
  view_.profile = &merged_;
  view_.weights = &view_weights_;
  view_.end_ms = static_cast<double>(at) / 1e6;
  return view_;
}

Status ProfileMerger::Write(int32_t format, const ExportOptions& options,
                            ByteSink& out) {
  return WriteExport(format, ExportView(), options, out);
}

size_t ProfileMerger::memory_bytes() const {
  size_t maps = 0;
  for (const auto& m : maps_) maps += m->map.segment_count() * 20;
  return merged_.memory_bytes() + weights_.capacity() * sizeof(SampleWeight) +
         view_weights_.capacity() * sizeof(SampleWeight) + maps +
         (stack_map_.capacity() + frame_map_.capacity() +
          resource_map_.capacity()) *
             sizeof(uint32_t) +
         gaps_.capacity() * sizeof(int64_t);
}

}  // namespace webprof
