// A SourceScan as compact records: how a scan made in one Wasm module (the
// tools module, which links the tokenizer and the function finder) reaches
// the SourceIndex of another (the page's load-time core, which links only
// the index and the queries: docs/ARCHITECTURE.md "What a page loads").
//
// JS copies the words from one module's memory into the other's without
// reading them, so the layout is known only here. All u32, positions
// 1-based as in the core (line 0 = none):
//   header       ScanRecordHeader
//   scripts      script_count x ScanScriptRow  (each scanned script's range)
//   functions    function_count x ScanFunctionRow
//   names        name_bytes bytes of UTF-8 (each row's name is a slice of
//                them), zero-padded to a whole word.
// The decoder trusts nothing: counts, slices, ranges and the functions'
// order (a scan's: by begin, outer first) are checked, and parents are
// linked again (SourceScan's invariants are rebuilt or checked, never taken
// from the words).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "source/source_scanner.h"

namespace webprof {

struct ScanRecordHeader {
  uint32_t version;  // kScanRecordVersion
  uint32_t script_count;
  uint32_t function_count;
  uint32_t scripts_scanned;
  uint32_t scripts_skipped;
  uint32_t name_bytes;
};
struct ScanScriptRow {
  uint32_t begin_line, begin_column, end_line, end_column;
};
struct ScanFunctionRow {
  uint32_t name_offset, name_length;  // a slice of the names
  uint32_t definition_line, definition_column;
  uint32_t begin_line, begin_column;
  uint32_t end_line, end_column;
  uint32_t entry_check_line, entry_check_column;
  uint32_t entry_paren_line, entry_paren_column;
};
constexpr uint32_t kScanRecordVersion = 1;
static_assert(sizeof(ScanRecordHeader) == 6 * 4 &&
                  sizeof(ScanScriptRow) == 4 * 4 &&
                  sizeof(ScanFunctionRow) == 12 * 4,
              "scan records are packed u32 words");

// Appends `scan` to `out` as records (out is cleared first).
void EncodeScan(const SourceScan& scan, std::vector<uint32_t>* out);

// Replaces `*scan` with what `count` words at `words` describe.
// kSourceUnscannable (and `*scan` unchanged) for words that are not such
// records.
Status DecodeScan(const uint32_t* words, size_t count, SourceScan* scan);

}  // namespace webprof
