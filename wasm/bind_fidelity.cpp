// Bindings for spec frame positions: a per-page index of scanned sources and
// the rewrite of a stopped session's frames to function definitions.
//
// Sources enter once per URL (JS fetches and caches them); the index keeps
// only the scan (definitions), never the text. Text arrives in the scratch
// buffer as UTF-8: the URL's bytes followed by the source's bytes.
#include <emscripten/bind.h>

#include <string>
#include <string_view>
#include <vector>

#include "bind_util.h"
#include "boundary/boundary.h"
#include "source/frame_resolver.h"
#include "source/html_scripts.h"
#include "source/probe_sites.h"
#include "source/source_index.h"
#include "source/source_scanner.h"
#include "trace/session.h"

using namespace emscripten;
using namespace webprof;
using namespace webprof::bind;

namespace {

class JsSourceIndex {
 public:
  // Scans `src_len` bytes after the `url_len`-byte URL at `ptr`; html = an
  // HTML document whose inline scripts are scanned. Returns a Status.
  int32_t add(uintptr_t ptr, uint32_t url_len, uint32_t src_len, bool html) {
    return static_cast<int32_t>(
        index_.Add(View(ptr, url_len), View(ptr + url_len, src_len), html));
  }
  void remove(const std::string& url) { index_.Remove(url); }
  // The core SourceIndex's address, for RuntimeProfile.resultsJson.
  uintptr_t handle() { return reinterpret_cast<uintptr_t>(&index_); }

  // Rewrites the frames of the session behind `session_handle`
  // (JsSession::handle) using the scans of its resources' URLs.
  int32_t resolve(uintptr_t session_handle) {
    ProfilerTrace& trace = reinterpret_cast<Session*>(session_handle)->trace();
    return static_cast<int32_t>(
        ResolveFrames(index_.ScansFor(trace), &trace, &stats_));
  }
  uint32_t framesIn() const { return stats_.frames_in; }
  uint32_t framesOut() const { return stats_.frames_out; }
  uint32_t framesResolved() const { return stats_.frames_resolved; }

 private:
  SourceIndex index_;
  ResolveStats stats_;
};

// Probe sites for the build-time transform (not a hot path). The result
// stays in `ProbeSites()` until the next call; JS copies it out at once and
// decodes each site with the probeSite* constants registered below.
std::vector<uint32_t>& ProbeSites() {
  static std::vector<uint32_t> sites;
  return sites;
}
ProbeSiteInfo& ProbeInfo() {
  static ProbeSiteInfo info;
  return info;
}
int32_t FindProbeSitesJs(uintptr_t ptr, uint32_t len, bool exit_checks) {
  std::vector<uint32_t>& sites = ProbeSites();
  Status s = FindProbeSites(View(ptr, len), ScanLimits(), &sites, &ProbeInfo(),
                            ProbeSiteOptions{exit_checks});
  if (s != Status::kOk) {
    sites.clear();
    sites.shrink_to_fit();
  }
  return static_cast<int32_t>(s);
}
val ProbeSitesView() {
  std::vector<uint32_t>& sites = ProbeSites();
  return val(typed_memory_view(sites.size(), sites.data()));
}

// The <script> elements of an HTML document for the transform of whole
// documents, as boundary::HtmlScriptRow u32 records, valid until the next
// call.
std::vector<boundary::HtmlScriptRow>& HtmlScriptRows() {
  static std::vector<boundary::HtmlScriptRow> rows;
  return rows;
}
val FindHtmlScriptsJs(uintptr_t ptr, uint32_t len) {
  std::vector<HtmlScript> scripts;
  FindHtmlScripts(View(ptr, len), &scripts);
  std::vector<boundary::HtmlScriptRow>& rows = HtmlScriptRows();
  rows.clear();
  for (const HtmlScript& h : scripts) {
    uint32_t flags = (h.javascript ? boundary::kHtmlJavaScript : 0u) |
                     (h.module ? boundary::kHtmlModule : 0u) |
                     (h.integrity ? boundary::kHtmlIntegrity : 0u);
    rows.push_back(
        {h.content_begin, h.content_end, flags, h.src_begin, h.src_end});
  }
  return val(typed_memory_view(
      rows.size() * sizeof(boundary::HtmlScriptRow) / sizeof(uint32_t),
      reinterpret_cast<uint32_t*>(rows.data())));
}
uint32_t ProbeSitesPrelude() { return ProbeInfo().prelude; }
bool ProbeSitesModuleSyntax() { return ProbeInfo().module_syntax; }
uint32_t ProbeSitesUnwrapped() { return ProbeInfo().unwrapped; }
uint32_t ProbeSitesUnguarded() { return ProbeInfo().unguarded; }

}  // namespace

EMSCRIPTEN_BINDINGS(fidelity) {
  function("findProbeSites", &FindProbeSitesJs);
  function("probeSitesView", &ProbeSitesView);
  function("findHtmlScripts", &FindHtmlScriptsJs);
  function("probeSitesPrelude", &ProbeSitesPrelude);
  function("probeSitesModuleSyntax", &ProbeSitesModuleSyntax);
  function("probeSitesUnwrapped", &ProbeSitesUnwrapped);
  function("probeSitesUnguarded", &ProbeSitesUnguarded);
  constant("probeSiteKindShift", kProbeSiteKindShift);
  constant("probeSiteCheck", static_cast<uint32_t>(ProbeSiteKind::kCheck));
  constant("probeSiteCheckAfterDirective",
           static_cast<uint32_t>(ProbeSiteKind::kCheckAfterDirective));
  constant("probeSiteOpenBlock",
           static_cast<uint32_t>(ProbeSiteKind::kOpenBlock));
  constant("probeSiteCloseBlock",
           static_cast<uint32_t>(ProbeSiteKind::kCloseBlock));
  constant("probeSiteDeclareTemp",
           static_cast<uint32_t>(ProbeSiteKind::kDeclareTemp));
  constant("probeSiteExitEnd", static_cast<uint32_t>(ProbeSiteKind::kExitEnd));
  constant("probeSiteOpenArrow",
           static_cast<uint32_t>(ProbeSiteKind::kOpenArrow));
  constant("probeSiteCloseArrow",
           static_cast<uint32_t>(ProbeSiteKind::kCloseArrow));
  constant("probeSiteOpenReturn",
           static_cast<uint32_t>(ProbeSiteKind::kOpenReturn));
  constant("probeSiteCloseReturn",
           static_cast<uint32_t>(ProbeSiteKind::kCloseReturn));
  constant("probeSiteReturnBare",
           static_cast<uint32_t>(ProbeSiteKind::kReturnBare));
  constant("probeSiteReturnBareEnd",
           static_cast<uint32_t>(ProbeSiteKind::kReturnBareEnd));
  class_<JsSourceIndex>("SourceIndex")
      .constructor<>()
      .function("add", &JsSourceIndex::add)
      .function("remove", &JsSourceIndex::remove)
      .function("handle", &JsSourceIndex::handle)
      .function("resolve", &JsSourceIndex::resolve)
      .function("framesIn", &JsSourceIndex::framesIn)
      .function("framesOut", &JsSourceIndex::framesOut)
      .function("framesResolved", &JsSourceIndex::framesResolved);
}
