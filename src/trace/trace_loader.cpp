#include "trace/trace_loader.h"

#include <cstring>
#include <limits>

#include "trace/session.h"

namespace webprof {

namespace {
constexpr double kTwoPow52 = 4503599627370496.0;
}  // namespace

Status TraceLoader::AddResource(std::string_view url, bool hidden) {
  if (own_ && (hidden || own_->IsOwnScript(url))) {
    resource_map_.push_back(kHidden);
    return Status::kOk;
  }
  ResourceId id = trace_->InternResource(url);
  if (id.is_none()) return Status::kTableFull;
  resource_map_.push_back(id.value);
  return Status::kOk;
}

Status TraceLoader::AddFrame(std::string_view name, uint32_t resource,
                             uint32_t line, uint32_t column) {
  ResourceId res = ResourceId::None();
  if (resource != kNone) {
    if (resource >= resource_map_.size()) return Status::kUnknownResource;
    res = ResourceId(resource_map_[resource]);
  }
  if (own_ &&
      ((resource != kNone && res.value == kHidden) || own_->IsOwnName(name))) {
    frame_map_.push_back(kHidden);
    return Status::kOk;
  }
  StringId n = trace_->names().Intern(name);
  if (n.is_none()) return Status::kTableFull;
  FrameId out;
  Status st = trace_->InternFrame(n, res, line, column, &out);
  if (st != Status::kOk) return st;
  frame_map_.push_back(out.value);
  return Status::kOk;
}

Status TraceLoader::AddStacks(const uint32_t* r, size_t count) {
  const size_t base = stack_map_.size();
  const size_t known = base - 1 + count;  // W3C rows so far, this call's too
  for (size_t i = 0; i < count; ++i, r += 2) {
    const size_t index = stack_map_.size() - 1;  // this row's W3C index
    if (r[0] >= frame_map_.size())
      return UndoStacks(Status::kUnknownFrame, base);
    const uint32_t frame = frame_map_[r[0]];
    uint32_t parent_key = 0;
    if (r[1] != kNone) {
      if (r[1] >= known) return UndoStacks(Status::kUnknownParent, base);
      if (r[1] >= index) return UndoStacks(Status::kParentNotBefore, base);
      parent_key = r[1] + 1;
    }
    if (own_) {  // interned at first use (Resolve)
      rows_.emplace_back(frame, parent_key);
      stack_map_.push_back(kUnresolved);
      stacks_identity_ = false;
      continue;
    }
    StackId out;
    Status st = trace_->InternStack(FrameId(frame),
                                    StackId(stack_map_[parent_key]), &out);
    if (st != Status::kOk) return UndoStacks(st, base);
    stacks_identity_ &= out.value == index;
    stack_map_.push_back(out.value);
  }
  return Status::kOk;
}

Status TraceLoader::UndoStacks(Status s, size_t base) {
  stack_map_.resize(base);  // rows already interned stay (harmless)
  if (own_) rows_.resize(base - 1);
  stacks_identity_ = false;  // they took core ids the map no longer has
  return s;
}

Status TraceLoader::Resolve(uint32_t key, uint32_t* out) {
  // Up to the first ancestor already interned (or none); parents come
  // before children (AddStacks), so the walk ends.
  chain_.clear();
  for (uint32_t k = key; k != 0 && stack_map_[k] == kUnresolved;
       k = rows_[k - 1].second)
    chain_.push_back(k);
  for (size_t i = chain_.size(); i-- > 0;) {
    const std::pair<uint32_t, uint32_t>& row = rows_[chain_[i] - 1];
    uint32_t parent = stack_map_[row.second];
    if (row.first == kHidden) {  // webprof's or a hidden script's frame
      stack_map_[chain_[i]] = parent;
      continue;
    }
    StackId id;
    Status st = trace_->InternStack(FrameId(row.first), StackId(parent), &id);
    if (st != Status::kOk) return st;
    stack_map_[chain_[i]] = id.value;
  }
  *out = stack_map_[key];
  return Status::kOk;
}

SampleBuffer::Span TraceLoader::ReserveSamples(size_t n) {
  DropSamples();
  SampleBuffer& samples = trace_->mutable_samples();
  reserved_at_ = samples.size();
  reserved_ = samples.AppendSpan(n);
  return reserved_;
}

void TraceLoader::DropSamples() {
  if (reserved_.size) trace_->mutable_samples().Truncate(reserved_at_);
  reserved_ = {};
}

Status TraceLoader::CommitSamples() {
  static_assert(sizeof(Sample) == 16 && offsetof(Sample, stack) == 8 &&
                    offsetof(Sample, reserved) == 12,
                "a reserved row is two f64: [timestamp, stack]");
  const SampleBuffer& samples = trace_->samples();
  // The time rule holds within this load; earlier loads' samples (a join)
  // are merged with it by Finish().
  const bool first = reserved_at_ == joined_at_;
  double prev = first ? 0 : samples[reserved_at_ - 1].timestamp;
  const double offset = offset_;
  // Locals, not members: stores into the rows would otherwise force the
  // compiler to reload every member per row.
  Sample* rows = reserved_.data;
  const size_t n = reserved_.size;
  const uint32_t* map = stack_map_.data();
  const bool identity = stacks_identity_;
  const double keys = double(stack_map_.size());
  // As sampled, a sample earlier than the one before it is kept and
  // Finish() orders the table; as given it is refused.
  const bool reorder = own_ != nullptr;
  size_t unordered = SIZE_MAX;
  for (size_t i = 0; i < n; ++i) {
    char* row = reinterpret_cast<char*>(&rows[i]);
    double ts = rows[i].timestamp + offset, st;
    std::memcpy(&st, row + 8, sizeof st);
    // A stack's key is st + 1, so "no stack" (-1) is key 0 and needs no
    // branch of its own. Adding 2^52 puts an integral key in the low bits
    // of the double, which is how the key is read: double -> integer
    // conversions cost Wasm (trap guards) several times this. Subtracting
    // 2^52 back tests that st was an integer. With prev >= 0, the time test
    // accepts exactly what SampleTimeStatus() accepts (finite, >= 0, not
    // before the previous sample), which classifies the rare failure.
    double key = st + 1;
    double shifted = key + kTwoPow52;
    uint64_t bits;
    std::memcpy(&bits, &shifted, sizeof bits);
    uint32_t k = static_cast<uint32_t>(bits);
    const bool key_ok = key >= 0 && key < keys && shifted - kTwoPow52 - 1 == st;
    if (!(ts >= prev && ts <= std::numeric_limits<double>::max() && key_ok)) {
      Status s = SampleTimeStatus(ts, i || !first ? prev : -1);
      if (s == Status::kTimestampOutOfOrder && reorder && key_ok) {
        if (unordered == SIZE_MAX) unordered = reserved_at_ + i;
      } else {
        DropSamples();
        return s != Status::kOk ? s : Status::kUnknownStack;
      }
    }
    // Key 0 -> None (all ones) either way; then reserved = 0.
    uint64_t stack = identity ? uint32_t(k - 1) : map[k];
    if (stack == kUnresolved) {  // as sampled: first use of this stack
      uint32_t id;
      Status s = Resolve(k, &id);
      if (s != Status::kOk) {
        DropSamples();
        return s;
      }
      stack = id;
    }
    std::memcpy(row + 8, &stack, sizeof stack);  // little-endian (Wasm, x86)
    rows[i].timestamp = ts;
    prev = ts;
  }
  // A joined load that starts before the earlier loads' latest sample.
  if (first && joined_at_ > 0 && n > 0 &&
      rows[0].timestamp < samples[joined_at_ - 1].timestamp)
    unordered = joined_at_;
  reserved_ = {};
  has_samples_ = true;
  if (unordered < unordered_from_) unordered_from_ = unordered;
  return Status::kOk;
}

void TraceLoader::Finish() {
  if (unordered_from_ == SIZE_MAX) return;
  // Samples before the first out-of-order one are in order already; the
  // earliest of the rest decides how far back the order must be redone.
  SampleBuffer& samples = trace_->mutable_samples();
  double t = samples[unordered_from_].timestamp;
  for (size_t i = unordered_from_; i < samples.size(); ++i)
    if (samples[i].timestamp < t) t = samples[i].timestamp;
  size_t from = unordered_from_;
  while (from > 0 && samples[from - 1].timestamp > t) --from;
  samples.SortByTimeFrom(from);
  unordered_from_ = SIZE_MAX;
}

}  // namespace webprof
