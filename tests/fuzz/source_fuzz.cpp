// The source readers on arbitrary text: the scanner (tokenizer + function
// finder) over a script and over an HTML document, the <script> finder and
// the transform's probe-site finder with and without exit checks; a scan's
// records (source/scan_records.h) round-trip, and the input read as records
// is decoded or refused. None may crash, loop or read out of range; every
// result must point inside the input.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "source/html_scripts.h"
#include "source/probe_sites.h"
#include "source/scan_records.h"
#include "source/source_scanner.h"

using namespace webprof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ScanLimits limits;
  SourceScan scan;
  if (scan.ScanScript(text, limits) == Status::kOk) {
    for (const FunctionDefinition& f : scan.functions())
      scan.Resolve(f.begin.line, f.begin.column);
    std::vector<uint32_t> words;
    EncodeScan(scan, &words);
    SourceScan back;
    if (DecodeScan(words.data(), words.size(), &back) != Status::kOk ||
        back.functions().size() != scan.functions().size())
      std::abort();
    for (const FunctionDefinition& f : scan.functions()) {
      const FunctionDefinition* a = scan.Resolve(f.begin.line, f.begin.column);
      const FunctionDefinition* b = back.Resolve(f.begin.line, f.begin.column);
      if ((a == nullptr) != (b == nullptr) || (a && a->name != b->name))
        std::abort();
    }
  }
  {
    std::vector<uint32_t> words(size / 4);
    if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
    SourceScan decoded;
    if (DecodeScan(words.data(), words.size(), &decoded) == Status::kOk)
      for (const FunctionDefinition& f : decoded.functions())
        decoded.Resolve(f.end.line, f.end.column);
  }
  scan.ScanHtml(text, limits);
  scan.Resolve(1, 1);
  std::vector<HtmlScript> scripts;
  FindHtmlScripts(text, &scripts);
  for (const HtmlScript& s : scripts) {
    if (s.content_begin > s.content_end || s.content_end > size) std::abort();
    if (s.external() && (s.src_begin > s.src_end || s.src_end > size))
      std::abort();
  }
  for (bool exits : {false, true}) {
    std::vector<uint32_t> sites;
    ProbeSiteOptions o;
    o.exit_checks = exits;
    if (FindProbeSites(text, limits, &sites, nullptr, o) != Status::kOk)
      continue;
    for (uint32_t site : sites)
      if (ProbeSiteOffset(site) > size) std::abort();
  }
  return 0;
}
