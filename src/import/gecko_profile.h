// Importer of Firefox's Gecko profile JSON (what MOZ_PROFILER_SHUTDOWN
// writes; meta.version 34 verified) into a profiling Session, so a profile
// Firefox's own sampler recorded goes out through the same exporters and
// summary as webprof's.
//
// What is taken (the rules, in order):
//  - the thread: a content process's (`processType` "tab") "GeckoMain"
//    thread, where a page's JS runs. With `page_url`, one whose process
//    lists that page in `pages` (same URL without fragment; else same
//    origin); of several, the one with the most samples in the window.
//    Without it, the content main thread with the most samples in the
//    window. None: kNoProfileThread.
//  - the samples: those whose time (the process's meta.startTime + the
//    sample's `time`, Unix ms) lies in [window_start, window_end]; their
//    timestamps are ms since `time_origin` (the window start when not given),
//    in time order.
//  - JS frames: a location `name (url:line:col)`, `url:line:col` (no name)
//    or a script's top level `url[source]` becomes a frame (name, url, line,
//    column) with the function's definition position as Gecko prints it (the
//    top level: its script's start from `sources`), like Chromium's native
//    Profiler reports them; JS of the browser itself (chrome:, resource:,
//    moz-extension:, moz-src:, jar: URLs) is not the page's.
//  - every other frame is dropped: native code addresses, the browser's JS
//    and label frames, also those marked relevantForJS (the label of a Web
//    API the page called, "Performance.now", as much as a C++ function's):
//    its time goes to the nearest page function that called it — the
//    function the page author can change — or the sample has no stack
//    (idle, the event loop, GC outside page JS).
// Malformed or truncated text, a table of the wrong shape, or an index out
// of range is kMalformedProfile with a sentence in `error` naming the place;
// nothing is added to the session then.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "base/status.h"
#include "trace/session.h"

namespace webprof {

struct GeckoImportOptions {
  std::string page_url;  // "" = the busiest content main thread
  // The recording window, Unix ms (the clock of the profile's startTime).
  double window_start_ms = -std::numeric_limits<double>::infinity();
  double window_end_ms = std::numeric_limits<double>::infinity();
  // Unix ms of timestamp 0; NaN: the window start, or the first sample's.
  double time_origin_ms = std::numeric_limits<double>::quiet_NaN();
};

struct GeckoImportInfo {
  double interval_ms = 0;  // meta.interval: the sampler's interval
  int64_t pid = 0;
  int64_t tid = 0;
  std::string thread_name;
  std::string process_name;
  uint32_t thread_samples = 0;  // the thread's samples, in and out of window
  uint32_t samples = 0;         // kept (in the window)
  double time_origin_ms = 0;    // Unix ms of the session's timestamp 0
  bool truncated = false;       // the session's buffer filled up
};

// A cheap sniff ("not my format" is false): an object with "meta" and
// "threads" near its start.
bool IsGeckoProfile(std::string_view text);

// Adds the chosen thread's frames, stacks and samples to `out` (an empty,
// started session; its maxBufferSize caps the samples).
Status ImportGeckoProfile(std::string_view json,
                          const GeckoImportOptions& options, Session* out,
                          GeckoImportInfo* info, std::string* error);

}  // namespace webprof
