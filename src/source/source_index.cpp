#include "source/source_index.h"

#include "source/scan_records.h"

namespace webprof {

Status SourceIndex::Add(std::string_view url, std::string_view source,
                        bool html) {
  auto scan = std::make_unique<SourceScan>();
  Status s = html ? scan->ScanHtml(source, limits_)
                  : scan->ScanScript(source, limits_);
  if (s != Status::kOk) return s;
  scans_[std::string(url)] = std::move(scan);
  return Status::kOk;
}

Status SourceIndex::AddRecords(std::string_view url, const uint32_t* words,
                               size_t count) {
  auto scan = std::make_unique<SourceScan>();
  Status s = DecodeScan(words, count, scan.get());
  if (s != Status::kOk) return s;
  scans_[std::string(url)] = std::move(scan);
  return Status::kOk;
}

void SourceIndex::Remove(std::string_view url) {
  scans_.erase(std::string(url));
}

const SourceScan* SourceIndex::Find(std::string_view url) const {
  auto it = scans_.find(std::string(url));
  return it == scans_.end() ? nullptr : it->second.get();
}

std::vector<const SourceScan*> SourceIndex::ScansFor(
    const ProfilerTrace& trace) const {
  std::vector<const SourceScan*> out(trace.resources().size(), nullptr);
  for (uint32_t r = 0; r < out.size(); ++r)
    out[r] = Find(trace.resource_url(ResourceId(r)));
  return out;
}

}  // namespace webprof
