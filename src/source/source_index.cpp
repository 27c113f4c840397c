#include "source/source_index.h"

#include "base/hash.h"

namespace webprof {

uint32_t SourceIndex::Row(std::string_view url) {
  const uint64_t hash = HashBytes(url);
  uint32_t row = index_.Find(hash, [&](uint32_t r) { return urls_[r] == url; });
  if (row != InternIndex::kMissing) return row;
  row = static_cast<uint32_t>(urls_.size());
  index_.Insert(hash, row);
  urls_.emplace_back(url);
  scans_.emplace_back();
  return row;
}

Status SourceIndex::Add(std::string_view url, std::string_view source,
                        bool html) {
  auto scan = std::make_unique<SourceScan>();
  Status s = html ? scan->ScanHtml(source, limits_)
                  : scan->ScanScript(source, limits_);
  if (s != Status::kOk) return s;
  scans_[Row(url)] = std::move(scan);
  return Status::kOk;
}

void SourceIndex::Remove(std::string_view url) {
  uint32_t row =
      index_.Find(HashBytes(url), [&](uint32_t r) { return urls_[r] == url; });
  if (row != InternIndex::kMissing) scans_[row].reset();
}

const SourceScan* SourceIndex::Find(std::string_view url) const {
  uint32_t row =
      index_.Find(HashBytes(url), [&](uint32_t r) { return urls_[r] == url; });
  return row == InternIndex::kMissing ? nullptr : scans_[row].get();
}

std::vector<const SourceScan*> SourceIndex::ScansFor(
    const std::vector<std::string>& urls) const {
  std::vector<const SourceScan*> out;
  for (const std::string& url : urls) out.push_back(Find(url));
  return out;
}

}  // namespace webprof
