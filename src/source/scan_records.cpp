#include "source/scan_records.h"

#include <cstring>

namespace webprof {
namespace {

template <typename Row>
constexpr size_t kWords = sizeof(Row) / sizeof(uint32_t);

template <typename Row>
void Put(const Row& row, std::vector<uint32_t>* out) {
  size_t at = out->size();
  out->resize(at + kWords<Row>);
  std::memcpy(out->data() + at, &row, sizeof(Row));
}

template <typename Row>
Row Get(const uint32_t* words) {
  Row row;
  std::memcpy(&row, words, sizeof(Row));
  return row;
}

}  // namespace

void EncodeScan(const SourceScan& scan, std::vector<uint32_t>* out) {
  out->clear();
  std::string names;
  std::vector<uint32_t> rows;
  for (const FunctionDefinition& f : scan.functions()) {
    ScanFunctionRow r{static_cast<uint32_t>(names.size()),
                      static_cast<uint32_t>(f.name.size()),
                      f.definition.line,
                      f.definition.column,
                      f.begin.line,
                      f.begin.column,
                      f.end.line,
                      f.end.column,
                      f.entry_check.line,
                      f.entry_check.column,
                      f.entry_check_paren.line,
                      f.entry_check_paren.column};
    names += f.name;
    Put(r, &rows);
  }
  Put(ScanRecordHeader{kScanRecordVersion,
                       static_cast<uint32_t>(scan.scripts().size()),
                       static_cast<uint32_t>(scan.functions().size()),
                       scan.scripts_scanned(), scan.scripts_skipped(),
                       static_cast<uint32_t>(names.size())},
      out);
  for (const SourceScan::ScriptRegion& s : scan.scripts())
    Put(ScanScriptRow{s.begin.line, s.begin.column, s.end.line, s.end.column},
        out);
  out->insert(out->end(), rows.begin(), rows.end());
  size_t at = out->size();
  out->resize(at + (names.size() + 3) / 4, 0);
  if (!names.empty()) std::memcpy(out->data() + at, names.data(), names.size());
}

Status DecodeScan(const uint32_t* words, size_t count, SourceScan* scan) {
  constexpr Status kBad = Status::kInvalidArgument;
  if (count < kWords<ScanRecordHeader>) return kBad;
  const auto h = Get<ScanRecordHeader>(words);
  if (h.version != kScanRecordVersion) return kBad;
  // Sizes in 64 bits: no count can wrap the sum.
  const uint64_t need = kWords<ScanRecordHeader> +
                        uint64_t{h.script_count} * kWords<ScanScriptRow> +
                        uint64_t{h.function_count} * kWords<ScanFunctionRow> +
                        (uint64_t{h.name_bytes} + 3) / 4;
  if (need != count) return kBad;
  const uint32_t* p = words + kWords<ScanRecordHeader>;
  std::vector<SourceScan::ScriptRegion> scripts(h.script_count);
  for (auto& s : scripts) {
    const auto r = Get<ScanScriptRow>(p);
    p += kWords<ScanScriptRow>;
    s.begin = SourcePosition{r.begin_line, r.begin_column};
    s.end = SourcePosition{r.end_line, r.end_column};
    if (s.end < s.begin) return kBad;
  }
  const char* names = reinterpret_cast<const char*>(
      p + uint64_t{h.function_count} * kWords<ScanFunctionRow>);
  std::vector<FunctionDefinition> functions(h.function_count);
  for (FunctionDefinition& f : functions) {
    const auto r = Get<ScanFunctionRow>(p);
    p += kWords<ScanFunctionRow>;
    if (r.name_offset > h.name_bytes ||
        r.name_length > h.name_bytes - r.name_offset)
      return kBad;
    f.name.assign(names + r.name_offset, r.name_length);
    f.definition = SourcePosition{r.definition_line, r.definition_column};
    f.begin = SourcePosition{r.begin_line, r.begin_column};
    f.end = SourcePosition{r.end_line, r.end_column};
    if (f.end < f.begin) return kBad;
    f.entry_check = SourcePosition{r.entry_check_line, r.entry_check_column};
    f.entry_check_paren =
        SourcePosition{r.entry_paren_line, r.entry_paren_column};
  }
  return scan->Restore(std::move(scripts), std::move(functions),
                       h.scripts_scanned, h.scripts_skipped)
             ? Status::kOk
             : kBad;
}

}  // namespace webprof
