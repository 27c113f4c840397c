#include "import/gecko_profile.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/time_units.h"
#include "import/gecko_tables.h"

namespace webprof {
namespace {

using gecko::Columns;
using gecko::kAbsent;
using gecko::Scan;
using gecko::ThreadRef;

std::string WithoutFragment(std::string_view url) {
  return std::string(url.substr(0, url.find('#')));
}

std::string_view OriginOf(std::string_view url) {
  size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return url;
  size_t end = url.find('/', scheme + 3);
  return url.substr(0, end);
}

bool IsBrowserScript(std::string_view url) {
  for (std::string_view s :
       {"chrome:", "resource:", "moz-extension:", "moz-src:", "jar:"})
    if (url.substr(0, s.size()) == s) return true;
  return false;
}

bool LooksLikeUrl(std::string_view s) {
  return s.find("://") != std::string_view::npos || s.substr(0, 5) == "data:" ||
         s.substr(0, 5) == "blob:" || s.substr(0, 6) == "about:";
}

// "digits" at the end of `s` after `sep` -> the number; false otherwise.
bool TrailingNumber(std::string_view* s, char sep, uint32_t* out) {
  size_t at = s->rfind(sep);
  if (at == std::string_view::npos || at + 1 == s->size()) return false;
  uint64_t v = 0;
  for (size_t i = at + 1; i < s->size(); ++i) {
    char c = (*s)[i];
    if (c < '0' || c > '9' || v > 0xFFFFFFFFull / 10) return false;
    v = v * 10 + uint64_t(c - '0');
  }
  if (v > 0xFFFFFFFFull) return false;
  *out = uint32_t(v);
  *s = s->substr(0, at);
  return true;
}

// `url:line:col` -> its three parts.
bool SplitPosition(std::string_view s, std::string_view* url, uint32_t* line,
                   uint32_t* col) {
  if (!TrailingNumber(&s, ':', col) || !TrailingNumber(&s, ':', line))
    return false;
  *url = s;
  return LooksLikeUrl(s);
}

struct JsLocation {
  std::string_view name, url;
  uint32_t line = 0, column = 0;
  uint32_t source = UINT32_MAX;  // `[n]` suffix: a row of `sources`
  bool top_level = false;
};

// The JS location forms Gecko prints (see the header); false: not JS.
bool ParseJsLocation(std::string_view s, JsLocation* out) {
  if (!s.empty() && s.back() == ']') {
    size_t open = s.rfind('[');
    std::string_view inner = s.substr(0, s.size() - 1);
    uint32_t n;
    if (open != std::string_view::npos && TrailingNumber(&inner, '[', &n)) {
      out->source = n;
      s = inner;
    }
  }
  if (!s.empty() && s.back() == ')') {
    size_t open = s.rfind(" (");
    if (open != std::string_view::npos &&
        SplitPosition(s.substr(open + 2, s.size() - open - 3), &out->url,
                      &out->line, &out->column)) {
      out->name = s.substr(0, open);
      return true;
    }
  }
  if (SplitPosition(s, &out->url, &out->line, &out->column)) return true;
  if (out->source != UINT32_MAX && LooksLikeUrl(s)) {
    out->url = s;
    out->top_level = true;
    return true;
  }
  return false;
}

// The content main threads, best first for `options`.
std::vector<size_t> Candidates(const Scan& scan,
                               const GeckoImportOptions& options) {
  std::vector<size_t> out;
  for (size_t i = 0; i < scan.threads.size(); ++i) {
    const ThreadRef& t = scan.threads[i];
    if (t.name == "GeckoMain" && t.process_type == "tab" &&
        t.process != kAbsent)
      out.push_back(i);
  }
  if (options.page_url.empty()) return out;
  std::string want = WithoutFragment(options.page_url);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<size_t> match;
    for (size_t i : out) {
      for (const std::string& page :
           scan.processes[scan.threads[i].process].pages) {
        bool same = pass == 0 ? WithoutFragment(page) == want
                              : OriginOf(page) == OriginOf(want);
        if (same) {
          match.push_back(i);
          break;
        }
      }
    }
    if (!match.empty()) return match;
  }
  return {};
}

}  // namespace

bool IsGeckoProfile(std::string_view text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || text[i] != '{') return false;
  std::string_view head = text.substr(i, 4096);
  return head.find("\"meta\"") != std::string_view::npos ||
         head.find("\"threads\"") != std::string_view::npos ||
         head.find("\"libs\"") != std::string_view::npos;
}

Status ImportGeckoProfile(std::string_view json,
                          const GeckoImportOptions& options, Session* out,
                          GeckoImportInfo* info, std::string* error) {
  error->clear();
  *info = GeckoImportInfo();
  // NaN: not given (the window start); anything else obeys the rule.
  if (!std::isnan(options.time_origin_ms))
    if (const char* problem = ProfileTimeProblemMs(options.time_origin_ms)) {
      *error = std::string("timeOrigin ") + problem;
      return Status::kInvalidArgument;
    }
  gecko::Reader in(json, error);
  Scan scan;
  if (!in.ScanProfile(&scan)) return Status::kMalformedProfile;
  info->interval_ms = scan.interval_ms;

  std::vector<size_t> candidates = Candidates(scan, options);
  if (candidates.empty()) {
    size_t content = Candidates(scan, GeckoImportOptions()).size();
    *error = "Gecko profile: none of its " + std::to_string(content) +
             " content-process main threads (GeckoMain) " +
             (options.page_url.empty() ? std::string("was recorded")
                                       : "shows " + options.page_url);
    return Status::kNoProfileThread;
  }
  auto start_of = [&](const ThreadRef& t) {
    double s = scan.processes[t.process].start_ms;
    return std::isfinite(s) ? s : scan.start_ms;
  };
  auto in_window = [&](double epoch) {
    return epoch >= options.window_start_ms && epoch <= options.window_end_ms;
  };

  // The thread with the most samples in the window.
  size_t best = kAbsent, best_count = 0;
  Columns samples;
  for (size_t i : candidates) {
    Columns cols;
    if (!in.ReadTable(scan.threads[i].samples, "samples", {"stack", "time"},
                      &cols))
      return Status::kMalformedProfile;
    double start = start_of(scan.threads[i]);
    if (!std::isfinite(start))
      return in.Fail("no meta.startTime for its sample times"),
             Status::kMalformedProfile;
    size_t n = 0;
    for (double t : cols[1]) n += in_window(start + t);
    if (best == kAbsent || n > best_count) {
      best = i;
      best_count = n;
      samples = std::move(cols);
    }
  }
  const ThreadRef& thread = scan.threads[best];
  info->pid = thread.pid;
  info->tid = thread.tid;
  info->thread_name = thread.name;
  info->process_name = thread.process_name;
  info->thread_samples = uint32_t(samples[0].size());

  std::vector<std::string> strings;
  Columns stacks, frames, sources;
  if (!in.ReadStrings(thread.strings, &strings) ||
      !in.ReadTable(thread.stacks, "stackTable", {"prefix", "frame"},
                    &stacks) ||
      !in.ReadTable(thread.frames, "frameTable", {"location"}, &frames))
    return Status::kMalformedProfile;
  size_t sources_at = scan.processes[thread.process].sources;
  if (sources_at != kAbsent &&
      !in.ReadTable(sources_at, "sources", {"?startLine", "?startColumn"},
                    &sources))
    return Status::kMalformedProfile;

  // Check every index before anything reaches the session.
  auto index_ok = [](double v, size_t size, bool null_ok) {
    if (std::isnan(v)) return null_ok;
    return v >= 0 && v < double(size) && v == std::floor(v);
  };
  for (size_t f = 0; f < frames[0].size(); ++f)
    if (!index_ok(frames[0][f], strings.size(), false))
      return in.Fail("frameTable row " + std::to_string(f) +
                     " has a location outside the stringTable"),
             Status::kMalformedProfile;
  for (size_t s = 0; s < stacks[0].size(); ++s)
    if (!index_ok(stacks[0][s], s, true) ||
        !index_ok(stacks[1][s], frames[0].size(), false))
      return in.Fail("stackTable row " + std::to_string(s) +
                     " has a prefix not before it or an unknown frame"),
             Status::kMalformedProfile;
  for (size_t i = 0; i < samples[0].size(); ++i)
    if (!index_ok(samples[0][i], stacks[0].size(), true) ||
        !std::isfinite(samples[1][i]))
      return in.Fail("sample " + std::to_string(i) +
                     " has an unknown stack or no time"),
             Status::kMalformedProfile;

  // Samples in the window, in time order.
  double start = start_of(thread);
  std::vector<size_t> order;
  for (size_t i = 0; i < samples[0].size(); ++i)
    if (in_window(start + samples[1][i])) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return samples[1][a] < samples[1][b];
  });
  double origin = options.time_origin_ms;
  if (!std::isfinite(origin))
    origin = std::isfinite(options.window_start_ms) ? options.window_start_ms
             : order.empty()                        ? start
                             : start + samples[1][order[0]];
  info->time_origin_ms = origin;

  ProfilerTrace& trace = out->trace();
  constexpr uint32_t kUnset = 0xFFFFFFFEu, kDropped = 0xFFFFFFFFu;
  std::vector<uint32_t> frame_map(frames[0].size(), kUnset);
  auto frame_of = [&](size_t f) -> uint32_t {
    if (frame_map[f] != kUnset) return frame_map[f];
    const std::string& loc = strings[size_t(frames[0][f])];
    JsLocation js;
    FrameId id;
    if (ParseJsLocation(loc, &js)) {
      if (!IsBrowserScript(js.url)) {
        if (js.top_level && !sources.empty() && js.source < sources[0].size()) {
          double l = sources[0][js.source], c = sources[1][js.source];
          js.line = l >= 1 && l < 4e9 ? uint32_t(l) : 0;
          js.column = c >= 1 && c < 4e9 ? uint32_t(c) : 0;
        }
        id = trace.InternFrame(RawFrame{js.name, js.url, js.line, js.column});
      }
    }
    frame_map[f] = id.is_none() ? kDropped : id.value;
    return frame_map[f];
  };
  // Gecko stack -> core stack, parents first (prefix < row: no loop).
  std::vector<uint32_t> stack_map(stacks[0].size(), kUnset);
  std::vector<size_t> chain;
  auto stack_of = [&](size_t s) {
    chain.clear();
    for (size_t k = s; stack_map[k] == kUnset;) {
      chain.push_back(k);
      if (std::isnan(stacks[0][k])) break;
      k = size_t(stacks[0][k]);
    }
    for (size_t i = chain.size(); i-- > 0;) {
      size_t k = chain[i];
      StackId parent = std::isnan(stacks[0][k])
                           ? StackId::None()
                           : StackId(stack_map[size_t(stacks[0][k])]);
      uint32_t frame = frame_of(size_t(stacks[1][k]));
      StackId id = parent;
      // A full stack table keeps the deepest stored prefix (the cap's rule).
      if (frame != kDropped &&
          trace.InternStack(FrameId(frame), parent, &id) != Status::kOk)
        id = parent;
      stack_map[k] = id.value;
    }
    return StackId(stack_map[s]);
  };
  for (size_t i : order) {
    double t = start + samples[1][i] - origin;
    if (t < 0) continue;
    StackId stack = std::isnan(samples[0][i]) ? StackId::None()
                                              : stack_of(size_t(samples[0][i]));
    Status st = out->TakeSample(t, stack);
    if (st == Status::kOk) {
      ++info->samples;
    } else if (st == Status::kBufferFull || st == Status::kStopped) {
      info->truncated = true;
      break;
    }
  }
  return Status::kOk;
}

}  // namespace webprof