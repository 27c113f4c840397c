// The source readers on arbitrary text: the scanner (tokenizer + function
// finder) over a script and over an HTML document, the <script> finder and
// the transform's probe-site finder with and without exit checks; each
// function's definition asked and answered as records
// (source/frame_definitions.h) is the scan's own, and the input read as
// either kind of records is decoded or refused. None may crash, loop or read
// out of range; every result must point inside the input.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "source/frame_definitions.h"
#include "source/html_scripts.h"
#include "source/probe_sites.h"
#include "source/source_scanner.h"

using namespace webprof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ScanLimits limits;
  SourceScan scan;
  if (scan.ScanScript(text, limits) == Status::kOk) {
    for (const FunctionDefinition& f : scan.functions())
      scan.Resolve(f.begin.line, f.begin.column);
    ProfilerTrace trace;
    for (const FunctionDefinition& f : scan.functions())
      trace.InternFrame(RawFrame{"f", "s", f.begin.line, f.begin.column});
    std::vector<uint32_t> words;
    EncodeFramePositions(trace, &words);
    FramePositions positions;
    if (positions.Decode(words.data(), words.size()) != Status::kOk)
      std::abort();
    FrameDefinitions there, here;
    there.Define({&scan}, positions);
    there.Encode(&words);
    const uint32_t n = trace.frames().size();
    if (here.Decode(words.data(), words.size(), n) != Status::kOk) std::abort();
    for (uint32_t i = 0; i < n; ++i) {
      Definition a, b;
      const Frame& f = trace.frames().rows()[i];
      bool found = FindDefinition(scan, f.line, f.column, &a);
      if (found != here.Of(i, &b) ||
          (found && (a.name != b.name || a.line != b.line ||
                     a.column != b.column || a.entry != b.entry)))
        std::abort();
    }
  }
  {
    std::vector<uint32_t> words(size / 4);
    if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
    FramePositions positions;
    if (positions.Decode(words.data(), words.size()) == Status::kOk) {
      FrameDefinitions d;
      d.Define({&scan}, positions);
    }
    FrameDefinitions decoded;
    const uint32_t frames = words.size() > 1 ? words[1] : 0;
    if (decoded.Decode(words.data(), words.size(), frames) == Status::kOk) {
      Definition d;
      for (uint32_t i = 0; i < frames; ++i) decoded.Of(i, &d);
    }
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
