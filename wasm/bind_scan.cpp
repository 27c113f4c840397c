// Binding for the source scanner (source/source_scanner.h): a script's text
// (or an HTML document's inline scripts) -> its function definitions as
// records (source/scan_records.h). A function from text to rows holding no
// state of the page's: linked into the tools module (webprof-tools.wasm,
// loaded on first use) and the Node-side core; the page's load-time core
// keeps only the index that takes the records in (bind_fidelity.cpp), so it
// links no tokenizer and no function finder. Text arrives in the scratch
// buffer as UTF-8.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <vector>

#include "bind_util.h"
#include "source/scan_records.h"
#include "source/source_scanner.h"

using namespace webprof;
using namespace webprof::bind;

extern "C" {

// Scans `len` bytes at `ptr` (html: a document whose inline scripts are
// scanned). Returns a Status; on kOk the records are the call's result
// (wp_result/wp_result_len), valid until the next scan.
EMSCRIPTEN_KEEPALIVE int32_t wp_source_scan(uintptr_t ptr, uint32_t len,
                                            bool html) {
  static std::vector<uint32_t> records;
  SourceScan scan;
  const ScanLimits limits;
  Status s = html ? scan.ScanHtml(View(ptr, len), limits)
                  : scan.ScanScript(View(ptr, len), limits);
  records.clear();
  if (s == Status::kOk) EncodeScan(scan, &records);
  if (records.capacity() > (1u << 16) && records.empty())
    records.shrink_to_fit();
  SetResultRows(records);
  return static_cast<int32_t>(s);
}

}  // extern "C"
