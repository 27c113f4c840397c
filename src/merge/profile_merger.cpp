#include "merge/profile_merger.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/median.h"
#include "base/time_units.h"
#include "export/format_registry.h"
#include "import/chrome_trace.h"
#include "import/cpuprofile.h"
#include "import/gecko_profile.h"
#include "import/w3c_trace.h"
#include "trace/session.h"

namespace webprof {
namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;  // no row (a root's parent)
constexpr uint32_t kNoMap = 0xFFFFFFFFu;
static_assert(StackId::kNoneValue == kNone && FrameId::kNoneValue == kNone,
              "a row mapped to no stack or frame holds None");

// The file name of a URL's path: what a bare map key ("app.js") matches.
std::string_view FileName(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  size_t slash = url.rfind('/');
  return slash == std::string_view::npos ? url : url.substr(slash + 1);
}

// The three kinds of input rows, as Resolve() reads them.
// V8: a row is a node; each node has its own frame (key = row).
struct V8Rows {
  const V8NodeTree& tree;
  uint32_t parent(uint32_t row) const { return tree.parent(row); }
  uint32_t frame_key(uint32_t row) const { return row; }
  bool frame(uint32_t key, RawFrame* out) const { return tree.frame(key, out); }
};

// W3C: a row is a stack row [frame, parent]; frames are shared rows.
struct W3CRows {
  const W3CTraceRows& t;
  uint32_t parent(uint32_t row) const { return t.stacks[2 * row + 1]; }
  uint32_t frame_key(uint32_t row) const { return t.stacks[2 * row]; }
  bool frame(uint32_t key, RawFrame* out) const {
    const W3CTraceRows::Frame& f = t.frames[key];
    *out = RawFrame{
        f.name,
        f.resource == kNone ? std::string_view() : t.resources[f.resource],
        f.line, f.column};
    return true;
  }
};

// A trace already imported into a session (Gecko's threads).
struct TraceRows {
  const ProfilerTrace& t;
  uint32_t parent(uint32_t row) const {
    return t.stacks().Get(StackId(row)).parent.value;
  }
  uint32_t frame_key(uint32_t row) const {
    return t.stacks().Get(StackId(row)).frame.value;
  }
  bool frame(uint32_t key, RawFrame* out) const {
    const Frame& f = t.frames().Get(FrameId(key));
    *out = RawFrame{
        t.names().Get(f.name),
        f.resource.is_none() ? std::string_view() : t.resource_url(f.resource),
        f.line, f.column};
    return true;
  }
};

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
  frame_cache_.Clear();  // frames of this script map elsewhere now
  return Status::kOk;
}

Status ProfileMerger::AddInput(std::string_view text, std::string_view name,
                               MergeInputInfo* info, std::string* error) {
  *info = MergeInputInfo{};
  error->clear();
  info->format = DetectProfileFormat(text);
  // Each format's read-and-fold is a function of its own, called through
  // this table. Why not a switch: Binaryen inlines every function that has
  // one caller into it, which made the Node-side core's addInput one 25 KB
  // function holding all four readers; V8 runs it in its baseline tier
  // until TurboFan has compiled all of it (0.3-0.4 s on the bench's two
  // cores, while every input is read at baseline speed). A function whose
  // address is taken is not inlined, so each format's path tiers up alone.
  using Add = Status (ProfileMerger::*)(std::string_view, MergeInputInfo*,
                                        std::string*);
  static constexpr Add kAdd[] = {
      nullptr,  // kUnknown
      &ProfileMerger::AddW3CTraceText, &ProfileMerger::AddChromeTraceText,
      &ProfileMerger::AddCpuProfileText, &ProfileMerger::AddGeckoText};
  static_assert(int(ProfileFormat::kUnknown) == 0 &&
                    int(ProfileFormat::kW3CTrace) == 1 &&
                    int(ProfileFormat::kChromeTrace) == 2 &&
                    int(ProfileFormat::kCpuProfile) == 3 &&
                    int(ProfileFormat::kGeckoProfile) == 4 &&
                    sizeof kAdd / sizeof kAdd[0] == 5,
                "kAdd is indexed by ProfileFormat");
  std::string why;
  Status st = Status::kInvalidArgument;
  const Add add = kAdd[static_cast<int>(info->format)];
  if (add) {
    // Each reader validates the whole input before anything is folded.
    st = (this->*add)(text, info, &why);
  } else {
    why =
        "not a profile webprof reads (W3C ProfilerTrace JSON, Chrome trace "
        "JSON, .cpuprofile or Gecko profile JSON)";
  }
  if (st != Status::kOk) {
    *error = std::string(name) + ": " + why;
    return st;
  }
  ++totals_.inputs;
  return Status::kOk;
}

Status ProfileMerger::AddCpuProfileText(std::string_view text,
                                        MergeInputInfo* info,
                                        std::string* why) {
  RawCpuProfile& p = cpu_profile_;
  p.Clear();
  const Status st = ReadCpuProfileText(text, &p, why);
  if (st == Status::kOk) {
    const double origin = RawCpuProfileOriginUs(p);
    AddV8Profile(p, origin, RawCpuProfileEndMs(p, origin), info);
  }
  return st;
}

Status ProfileMerger::AddChromeTraceText(std::string_view text,
                                         MergeInputInfo* info,
                                         std::string* why) {
  std::vector<ChromeTraceRawProfile> profiles;
  ChromeTraceImportInfo got;
  const Status st = ReadChromeTrace(
      text, std::numeric_limits<double>::quiet_NaN(), &profiles, &got, why);
  // One thread at a time, each dropped once folded.
  for (ChromeTraceRawProfile& p : profiles) {
    AddV8Profile(p.profile, got.time_origin_us,
                 RawCpuProfileEndMs(p.profile, got.time_origin_us), info);
    p.profile = RawCpuProfile{};
  }
  return st;
}

Status ProfileMerger::AddW3CTraceText(std::string_view text,
                                      MergeInputInfo* info, std::string* why) {
  W3CTraceRows& rows = w3c_rows_;
  rows.Clear();
  const Status st = ReadW3CTrace(text, &rows, why);
  if (st == Status::kOk) AddW3CRows(rows, info);
  return st;
}

Status ProfileMerger::AddGeckoText(std::string_view text, MergeInputInfo* info,
                                   std::string* why) {
  // One input's samples; no cap below the importer's own.
  Session s(SessionOptions{1, 0xFFFFFFFFu, 0});
  GeckoImportInfo got;
  const Status st =
      ImportGeckoProfile(text, GeckoImportOptions{}, &s, &got, why);
  if (st == Status::kOk)
    AddTrace(s.trace(), std::numeric_limits<double>::quiet_NaN(), info);
  return st;
}

void ProfileMerger::BeginInput(size_t rows, size_t frame_keys) {
  stack_map_.assign(rows, kUnresolved);
  frame_map_.assign(frame_keys, kUnresolved);
  map_of_url_.clear();
}

int64_t* ProfileMerger::BeginThread(size_t samples) {
  gaps_.resize(samples);
  return gaps_.data();
}

bool ProfileMerger::EndsAfter(double end_ms, int64_t last_ns) {
  return std::isfinite(end_ms) && MsToNs(end_ms) > last_ns;
}

void ProfileMerger::EndThread(ThreadFold f, double end_ms,
                              MergeInputInfo* info) {
  const uint64_t n = f.samples;
  if (n == 0) return;
  int64_t last = 0;
  if (EndsAfter(end_ms, f.at)) {
    last = MsToNs(end_ms) - f.at;
  } else {
    last = MedianInPlace(gaps_.data(), n - 1);
  }
  Add(f.prev, 1, last);
  const int64_t total = f.total + last;
  ++totals_.profiles;
  totals_.samples += n;
  totals_.time_ns += total;
  ++info->profiles;
  info->samples += n;
  info->time_ns += total;
}

void ProfileMerger::AddTrace(const ProfilerTrace& in, double end_ms,
                             MergeInputInfo* info) {
  const SampleBuffer& s = in.samples();
  TraceRows rows{in};
  BeginInput(in.stacks().size(), in.frames().size());
  ThreadFold f;
  f.gaps = BeginThread(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const StackId st = s[i].stack;
    // A sample of a stack the trace does not hold has none (as before).
    Take<true>(f, MsToNs(s[i].timestamp),
               st.is_none() || !in.stacks().Contains(st)
                   ? StackId::None()
                   : Resolve(rows, st.value));
  }
  EndThread(f, end_ms, info);
}

void ProfileMerger::AddV8Profile(const RawCpuProfile& p, double origin_us,
                                 double end_ms, MergeInputInfo* info) {
  V8Rows rows{p.tree};
  const V8Samples& s = p.samples;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  BeginInput(p.tree.size(), p.tree.size());
  // No gap list while folding: a V8 profile has its end (endTime) after
  // its last sample, so the median gap is rarely wanted; then the gaps are
  // taken again below, in the same order.
  ThreadFold f;
  if (SamplesInOrder(s, origin_us, -kInf, kInf)) {
    // ForEachSample's order, written out: the fold's state stays local.
    const double* t = s.times_us.data();
    const uint32_t* index = s.index.data();
    const size_t n = std::min(s.index.size(), s.times_us.size());
    for (size_t i = 0; i < n; ++i)
      Take<false>(f, UsToNs(t[i] - origin_us), Resolve(rows, index[i]));
  } else {
    ThreadFold g;
    ForEachSample(p.tree, s, origin_us, -kInf, kInf, &order_,
                  [&](double us, uint32_t node) {
                    Take<false>(g, UsToNs(us), Resolve(rows, node));
                    return true;
                  });
    f = g;
  }
  if (f.samples > 1 && !EndsAfter(end_ms, f.at)) {
    int64_t* gaps = BeginThread(f.samples);
    int64_t at = 0;
    size_t k = 0;
    ForEachSample(p.tree, s, origin_us, -kInf, kInf, &order_,
                  [&](double us, uint32_t) {
                    const int64_t ns = UsToNs(us);
                    if (k > 0) gaps[k - 1] = ns > at ? ns - at : 0;
                    ++k;
                    at = ns;
                    return true;
                  });
  }
  EndThread(f, end_ms, info);
}

void ProfileMerger::AddW3CRows(const W3CTraceRows& t, MergeInputInfo* info) {
  W3CRows rows{t};
  BeginInput(t.stacks.size() / 2, t.frames.size());
  ThreadFold f;
  f.gaps = BeginThread(t.samples.size());
  for (const W3CTraceRows::Sample& s : t.samples)
    Take<true>(
        f, MsToNs(s.timestamp),
        s.stack < 0 ? StackId::None() : Resolve(rows, uint32_t(s.stack)));
  EndThread(f, std::numeric_limits<double>::quiet_NaN(), info);
}

template <typename Input>
StackId ProfileMerger::ResolveChain(const Input& in, uint32_t row) {
  // Up to the first ancestor already mapped; every reader checked that
  // parents form no cycle, so the walk ends.
  chain_.clear();
  for (uint32_t k = row; k != kNone && stack_map_[k] == kUnresolved;
       k = in.parent(k))
    chain_.push_back(k);
  for (size_t i = chain_.size(); i-- > 0;) {
    const uint32_t r = chain_[i], p = in.parent(r);
    const StackId parent =
        p == kNone ? StackId::None() : StackId(stack_map_[p]);
    // No function (a V8 pseudo-frame) or a frame past a cap: the row has
    // its parent's stack, so its time goes to the caller.
    StackId out = parent;
    const FrameId f = MapFrame(in, in.frame_key(r));
    if (!f.is_none()) {
      StackId got;
      if (merged_.InternStack(f, parent, &got) == Status::kOk) out = got;
    }
    if (!out.is_none() && out.value >= weights_.size())
      weights_.resize(out.value + 1);
    stack_map_[r] = out.value;
  }
  return StackId(stack_map_[row]);
}

const ProfileMerger::MapEntry* ProfileMerger::MapFor(std::string_view url) {
  auto cached = map_of_url_.find(url);
  uint32_t slot = kNoMap;
  if (cached != map_of_url_.end()) {
    slot = cached->second;
  } else {
    auto it = maps_by_key_.find(std::string(url));
    if (it == maps_by_key_.end())
      it = maps_by_key_.find(std::string(FileName(url)));
    if (it != maps_by_key_.end()) slot = static_cast<uint32_t>(it->second);
    map_of_url_.emplace(url, slot);
  }
  return slot == kNoMap ? nullptr : maps_[slot].get();
}

template <typename Input>
FrameId ProfileMerger::MapFrame(const Input& in, uint32_t key) {
  uint32_t& slot = frame_map_[key];
  if (slot != kUnresolved) return FrameId(slot);
  RawFrame raw;
  if (!in.frame(key, &raw)) {
    slot = FrameId::None().value;
    return FrameId::None();
  }
  const FrameId f = MergedFrame(raw);
  slot = f.value;
  return f;
}

FrameId ProfileMerger::MergedFrame(RawFrame raw) {
  const uint64_t hash = FrameCache::Hash(raw);
  const uint32_t cached = frame_cache_.Find(raw, hash);
  if (cached != FrameCache::kMissing) return FrameId(cached);
  const RawFrame key = raw;
  const MapEntry* m =
      maps_.empty() || raw.resource.empty() ? nullptr : MapFor(raw.resource);
  OriginalFrame orig;
  if (m && raw.line && raw.column &&
      m->symbolicator->Resolve(raw.line, raw.column, &orig)) {
    if (orig.has_name) raw.name = orig.name;
    raw.resource = m->map.sources()[orig.source];
    raw.line = orig.line;
    raw.column = orig.column;
  }
  const FrameId f = merged_.InternFrame(raw);
  // Not a frame past a cap: the tables count each one they refuse.
  if (!f.is_none()) frame_cache_.Insert(key, hash, f.value);
  return f;
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
         (stack_map_.capacity() + frame_map_.capacity() + chain_.capacity() +
          order_.capacity()) *
             sizeof(uint32_t) +
         gaps_.capacity() * sizeof(int64_t) + frame_cache_.memory_bytes() +
         cpu_profile_.tree.memory_bytes() +
         cpu_profile_.samples.memory_bytes() +
         w3c_rows_.samples.capacity() * sizeof(W3CTraceRows::Sample);
}

}  // namespace webprof
