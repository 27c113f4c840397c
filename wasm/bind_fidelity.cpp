// Bindings for spec frame positions: a per-page index of scanned sources and
// the rewrite of a stopped session's frames to function definitions.
//
// Sources enter once per URL (JS fetches and caches them); the index keeps
// only the scan (definitions), never the text. Text arrives in the scratch
// buffer as UTF-8: the URL's bytes followed by the source's bytes.
#include <emscripten/emscripten.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bind_util.h"
#include "boundary/boundary.h"
#include "export/byte_sink.h"
#include "export/json_writer.h"
#include "source/frame_resolver.h"
#include "source/html_scripts.h"
#include "source/probe_sites.h"
#include "source/source_index.h"
#include "source/source_scanner.h"
#include "trace/session.h"

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
  void remove(uintptr_t ptr, uint32_t len) {
    index_.Remove(std::string(View(ptr, len)));
  }
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
       static_cast<uint32_t>(ProbeSiteKind::kReturnBareEnd)}};
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

JsSourceIndex* At(uintptr_t p) { return reinterpret_cast<JsSourceIndex*>(p); }

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

// A source index JS owns (wp_source_index_delete frees it).
EMSCRIPTEN_KEEPALIVE uintptr_t wp_source_index_new() {
  return reinterpret_cast<uintptr_t>(new JsSourceIndex());
}
EMSCRIPTEN_KEEPALIVE void wp_source_index_delete(uintptr_t p) { delete At(p); }
EMSCRIPTEN_KEEPALIVE int32_t wp_source_index_add(uintptr_t p, uintptr_t ptr,
                                                 uint32_t url_len,
                                                 uint32_t src_len, bool html) {
  return At(p)->add(ptr, url_len, src_len, html);
}
// The URL as UTF-8 at ptr (the scratch buffer).
EMSCRIPTEN_KEEPALIVE void wp_source_index_remove(uintptr_t p, uintptr_t ptr,
                                                 uint32_t len) {
  At(p)->remove(ptr, len);
}
EMSCRIPTEN_KEEPALIVE uintptr_t wp_source_index_handle(uintptr_t p) {
  return At(p)->handle();
}
EMSCRIPTEN_KEEPALIVE int32_t wp_source_index_resolve(uintptr_t p,
                                                     uintptr_t session) {
  return At(p)->resolve(session);
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_source_index_frames_in(uintptr_t p) {
  return At(p)->framesIn();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_source_index_frames_out(uintptr_t p) {
  return At(p)->framesOut();
}
EMSCRIPTEN_KEEPALIVE uint32_t wp_source_index_frames_resolved(uintptr_t p) {
  return At(p)->framesResolved();
}

}  // extern "C"
