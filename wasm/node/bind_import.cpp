// Bindings for the importers of other profilers' formats (src/import/):
// one function per format, converting arguments and the result only (the
// entry check and {status, error}: bind_embind.h StatusResult).
//
// Ownership: JS malloc()s the profile text in Wasm memory, calls, then
// frees it; the imported trace goes into a Session JS already owns (a
// TraceSession's handle), so it is exported, summarised and read back as
// any other.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "bind_embind.h"
#include "bind_util.h"
#include "import/cpuprofile.h"
#include "import/gecko_profile.h"

using namespace emscripten;
using namespace webprof;

namespace {

// The profile text JS malloc()ed (its length a JS number).
std::string_view Text(uintptr_t ptr, double len) {
  return bind::View(ptr, static_cast<uint32_t>(len));
}
// The Session behind a TraceSession's handle (JsSession::handle()).
Session* SessionAt(uintptr_t handle) {
  return reinterpret_cast<Session*>(handle);
}

// A Gecko profile (UTF-8 JSON at text_ptr) into the session behind
// `handle`: {status, error, intervalMs, pid, tid, threadName, processName,
// threadSamples, samples, timeOriginMs, truncated}. Window and origin are
// Unix ms (NaN origin: the window start).
val ImportGecko(uintptr_t handle, uintptr_t text_ptr, double text_len,
                std::string page_url, double window_start, double window_end,
                double time_origin) {
  GeckoImportOptions o;
  o.page_url = std::move(page_url);
  o.window_start_ms = window_start;
  o.window_end_ms = window_end;
  o.time_origin_ms = time_origin;
  return bind::StatusResult([&](val& out, std::string* error) {
    GeckoImportInfo info;
    Status st = ImportGeckoProfile(Text(text_ptr, text_len), o,
                                   SessionAt(handle), &info, error);
    out.set("intervalMs", info.interval_ms);
    out.set("pid", double(info.pid));
    out.set("tid", double(info.tid));
    out.set("threadName", info.thread_name);
    out.set("processName", info.process_name);
    out.set("threadSamples", info.thread_samples);
    out.set("samples", info.samples);
    out.set("timeOriginMs", info.time_origin_ms);
    out.set("truncated", info.truncated);
    return st;
  });
}

// A V8 .cpuprofile (UTF-8 JSON at text_ptr) into the session behind
// `handle`: {status, error, startUs, timeOriginUs, endMs, nodes,
// profileSamples, samples, truncated}. Origin in µs of the profile's clock
// (NaN: its startTime).
val ImportCpu(uintptr_t handle, uintptr_t text_ptr, double text_len,
              double time_origin_us) {
  CpuProfileImportOptions o;
  o.time_origin_us = time_origin_us;
  return bind::StatusResult([&](val& out, std::string* error) {
    CpuProfileImportInfo info;
    Status st = ImportCpuProfile(Text(text_ptr, text_len), o, SessionAt(handle),
                                 &info, error);
    out.set("startUs", info.start_us);
    out.set("timeOriginUs", info.time_origin_us);
    out.set("endMs", info.end_ms);
    out.set("nodes", info.nodes);
    out.set("profileSamples", info.profile_samples);
    out.set("samples", info.samples);
    out.set("truncated", info.truncated);
    return st;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(import) {
  function("importGeckoProfile", &ImportGecko);
  function("importCpuProfile", &ImportCpu);
}
