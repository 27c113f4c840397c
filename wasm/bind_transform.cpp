// Bindings for the sampling transform (js/transform/): where a script gets
// its checks (source/probe_sites.h) and where an HTML document's inline
// scripts are (source/html_scripts.h). Functions from text to rows, holding
// no state of the page's: linked into the tools module (webprof-tools.wasm,
// loaded on first use: wasm/CMakeLists.txt) and the Node-side core, not into
// the page's load-time core. Text arrives in the scratch buffer as UTF-8.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "bind_util.h"
#include "boundary/boundary.h"
#include "export/byte_sink.h"
#include "export/json_writer.h"
#include "source/html_scripts.h"
#include "source/probe_sites.h"

using namespace webprof;
using namespace webprof::bind;

namespace {

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
void ProbeSitesView() { SetResultRows(ProbeSites()); }

// The <script> elements of an HTML document for the transform of whole
// documents, as boundary::HtmlScriptRow u32 records, valid until the next
// call.
std::vector<boundary::HtmlScriptRow>& HtmlScriptRows() {
  static std::vector<boundary::HtmlScriptRow> rows;
  return rows;
}
void FindHtmlScriptsJs(uintptr_t ptr, uint32_t len) {
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
  SetResultRows(rows);
}
// The probe sites' kinds (source/probe_sites.h) as the result text, JSON:
// {probeSiteKindShift, probeSiteCheck, ...}, the names JS reads them by.
void ProbeSiteKinds() {
  const std::pair<const char*, uint32_t> kinds[] = {
      {"probeSiteKindShift", kProbeSiteKindShift},
      {"probeSiteCheck", static_cast<uint32_t>(ProbeSiteKind::kCheck)},
      {"probeSiteCheckAfterDirective",
       static_cast<uint32_t>(ProbeSiteKind::kCheckAfterDirective)},
      {"probeSiteOpenBlock", static_cast<uint32_t>(ProbeSiteKind::kOpenBlock)},
      {"probeSiteCloseBlock",
       static_cast<uint32_t>(ProbeSiteKind::kCloseBlock)},
      {"probeSiteDeclareTemp",
       static_cast<uint32_t>(ProbeSiteKind::kDeclareTemp)},
      {"probeSiteExitEnd", static_cast<uint32_t>(ProbeSiteKind::kExitEnd)},
      {"probeSiteOpenArrow", static_cast<uint32_t>(ProbeSiteKind::kOpenArrow)},
      {"probeSiteCloseArrow",
       static_cast<uint32_t>(ProbeSiteKind::kCloseArrow)},
      {"probeSiteOpenReturn",
       static_cast<uint32_t>(ProbeSiteKind::kOpenReturn)},
      {"probeSiteCloseReturn",
       static_cast<uint32_t>(ProbeSiteKind::kCloseReturn)},
      {"probeSiteReturnBare",
       static_cast<uint32_t>(ProbeSiteKind::kReturnBare)},
      {"probeSiteReturnBareEnd",
       static_cast<uint32_t>(ProbeSiteKind::kReturnBareEnd)},
      {"probeSiteLight", kProbeSiteLight}};
  ByteSink sink;
  JsonWriter w(&sink);
  w.BeginObject();
  for (const auto& [name, value] : kinds) {
    w.Key(name);
    w.Int(value);
  }
  w.EndObject();
  SetResultText(sink.ToString());
}

uint32_t ProbeSitesPrelude() { return ProbeInfo().prelude; }
bool ProbeSitesModuleSyntax() { return ProbeInfo().module_syntax; }
uint32_t ProbeSitesUnwrapped() { return ProbeInfo().unwrapped; }
uint32_t ProbeSitesUnguarded() { return ProbeInfo().unguarded; }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int32_t wp_probe_sites_find(uintptr_t ptr, uint32_t len,
                                                 bool exit_checks) {
  return FindProbeSitesJs(ptr, len, exit_checks);
}
EMSCRIPTEN_KEEPALIVE void wp_probe_sites_view() { ProbeSitesView(); }
EMSCRIPTEN_KEEPALIVE void wp_probe_site_kinds() { ProbeSiteKinds(); }
EMSCRIPTEN_KEEPALIVE void wp_html_scripts_find(uintptr_t ptr, uint32_t len) {
  FindHtmlScriptsJs(ptr, len);
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_probe_sites_prelude() {
  return ProbeSitesPrelude();
}
EMSCRIPTEN_KEEPALIVE bool wp_probe_sites_module_syntax() {
  return ProbeSitesModuleSyntax();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_probe_sites_unwrapped() {
  return ProbeSitesUnwrapped();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_probe_sites_unguarded() {
  return ProbeSitesUnguarded();
}

}  // extern "C"
