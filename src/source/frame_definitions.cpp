#include "source/frame_definitions.h"

#include <cstring>

namespace webprof {
namespace {

constexpr uint32_t kPositionsVersion = 1;
constexpr uint32_t kDefinitionsVersion = 1;

// `rows` as words, then `bytes` zero-padded to a whole word.
template <typename Row>
void Append(const std::vector<Row>& rows, std::vector<uint32_t>* out) {
  static_assert(sizeof(Row) % 4 == 0, "records are packed u32 words");
  const size_t at = out->size();
  out->resize(at + rows.size() * sizeof(Row) / 4);
  if (!rows.empty())
    std::memcpy(out->data() + at, rows.data(), rows.size() * sizeof(Row));
}
void AppendBytes(std::string_view bytes, std::vector<uint32_t>* out) {
  const size_t at = out->size();
  out->resize(at + (bytes.size() + 3) / 4, 0);
  if (!bytes.empty()) std::memcpy(out->data() + at, bytes.data(), bytes.size());
}

// Reads records front to back; any read past the end fails the reader.
class Reader {
 public:
  Reader(const uint32_t* words, size_t count) : p_(words), left_(count) {}
  // `n` rows into `rows`.
  template <typename Row>
  bool Rows(uint64_t n, std::vector<Row>* rows) {
    const uint64_t words = n * (sizeof(Row) / 4);
    if (words > left_) return false;
    rows->resize(n);
    if (n) std::memcpy(rows->data(), p_, n * sizeof(Row));
    Skip(words);
    return true;
  }
  // The `n` bytes left, which must be all that is left but the padding.
  bool Bytes(uint64_t n, std::string_view* out) {
    if ((n + 3) / 4 != left_) return false;
    *out = std::string_view(reinterpret_cast<const char*>(p_), n);
    Skip(left_);
    return true;
  }

 private:
  void Skip(uint64_t words) {
    p_ += words;
    left_ -= words;
  }
  const uint32_t* p_;
  uint64_t left_;
};

bool InSlice(uint32_t offset, uint32_t length, size_t size) {
  return offset <= size && length <= size - offset;
}

}  // namespace

bool FindDefinition(const SourceScan& scan, uint32_t line, uint32_t column,
                    Definition* out) {
  if (const FunctionDefinition* d = scan.Resolve(line, column)) {
    *out = Definition{d->name, d->definition.line, d->definition.column, false,
                      scan.IsEntryCheck(line, column)};
    return true;
  }
  SourcePosition start;
  if (!scan.ScriptStart(line, column, &start)) return false;
  // Top-level code: one frame per script, at its start.
  *out = Definition{"", start.line, start.column, true, false};
  return true;
}

void EncodeFramePositions(const ProfilerTrace& trace,
                          std::vector<uint32_t>* out) {
  const uint32_t resources = trace.resources().size();
  const auto& frames = trace.frames().rows();
  out->assign(4 + 2 * resources + 3 * frames.size(), 0);
  uint32_t* w = out->data();
  uint32_t bytes = 0;
  for (uint32_t r = 0; r < resources; ++r) {
    const uint32_t length = trace.resource_url(ResourceId(r)).size();
    w[4 + 2 * r] = bytes;
    w[5 + 2 * r] = length;
    bytes += length;
  }
  w[0] = kPositionsVersion;
  w[1] = resources;
  w[2] = static_cast<uint32_t>(frames.size());
  w[3] = bytes;
  w += 4 + 2 * resources;
  for (const Frame& f : frames) {
    *w++ =
        f.resource.is_none() ? FramePositions::kNoResource : f.resource.value;
    *w++ = f.line;
    *w++ = f.column;
  }
  const size_t at = out->size();
  out->resize(at + (bytes + 3) / 4, 0);
  char* to = reinterpret_cast<char*>(out->data() + at);
  for (uint32_t r = 0; r < resources; ++r) {
    const std::string_view url = trace.resource_url(ResourceId(r));
    std::memcpy(to, url.data(), url.size());
    to += url.size();
  }
}

Status FramePositions::Decode(const uint32_t* words, size_t count) {
  constexpr Status kBad = Status::kInvalidArgument;
  Reader in(words, count);
  std::vector<uint32_t> h;
  if (!in.Rows(4, &h) || h[0] != kPositionsVersion) return kBad;
  struct Slice {
    uint32_t offset, length;
  };
  std::vector<Slice> slices;
  std::vector<Position> positions;
  std::string_view bytes;
  if (!in.Rows(h[1], &slices) || !in.Rows(h[2], &positions) ||
      !in.Bytes(h[3], &bytes))
    return kBad;
  for (const Slice& s : slices)
    if (!InSlice(s.offset, s.length, bytes.size())) return kBad;
  for (const Position& p : positions)
    if (p.resource != kNoResource && p.resource >= slices.size()) return kBad;
  urls.clear();
  for (const Slice& s : slices)
    urls.emplace_back(bytes.substr(s.offset, s.length));
  frames = std::move(positions);
  return Status::kOk;
}

void FrameDefinitions::Define(const std::vector<const SourceScan*>& scans,
                              const FramePositions& positions) {
  Clear();
  for (const FramePositions::Position& p : positions.frames) {
    Row row{0, 0, 0, 0, 0};
    const SourceScan* scan =
        p.resource < scans.size() ? scans[p.resource] : nullptr;
    Definition d;
    if (scan && p.line > 0 && FindDefinition(*scan, p.line, p.column, &d)) {
      row =
          Row{kDefined | (d.top_level ? kTopLevel : 0) | (d.entry ? kEntry : 0),
              static_cast<uint32_t>(names_.size()),
              static_cast<uint32_t>(d.name.size()), d.line, d.column};
      names_ += d.name;
    }
    rows_.push_back(row);
  }
}

void FrameDefinitions::Clear() {
  rows_.clear();
  names_.clear();
}

bool FrameDefinitions::Of(uint32_t frame, Definition* out) const {
  if (frame >= rows_.size() || !(rows_[frame].flags & kDefined)) return false;
  const Row& r = rows_[frame];
  *out = Definition{
      std::string_view(names_).substr(r.name_offset, r.name_length), r.line,
      r.column, (r.flags & kTopLevel) != 0, (r.flags & kEntry) != 0};
  return true;
}

void FrameDefinitions::Encode(std::vector<uint32_t>* out) const {
  out->assign({kDefinitionsVersion, static_cast<uint32_t>(rows_.size()),
               static_cast<uint32_t>(names_.size())});
  Append(rows_, out);
  AppendBytes(names_, out);
}

Status FrameDefinitions::Decode(const uint32_t* words, size_t count,
                                uint32_t frame_count) {
  constexpr Status kBad = Status::kInvalidArgument;
  Reader in(words, count);
  std::vector<uint32_t> h;
  if (!in.Rows(3, &h) || h[0] != kDefinitionsVersion || h[1] != frame_count)
    return kBad;
  std::vector<Row> rows;
  std::string_view names;
  if (!in.Rows(h[1], &rows) || !in.Bytes(h[2], &names)) return kBad;
  for (const Row& r : rows)
    if (r.flags > (kDefined | kTopLevel | kEntry) ||
        !InSlice(r.name_offset, r.name_length, names.size()))
      return kBad;
  rows_ = std::move(rows);
  names_.assign(names);
  return Status::kOk;
}

}  // namespace webprof
