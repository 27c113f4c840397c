#include "probes/window.h"

#include <cmath>

namespace webprof {

namespace {
// A JS number that is a whole number in [lo, 2^53]; else false.
bool IsIntegerAtLeast(double v, double lo) {
  return std::isfinite(v) && v == std::floor(v) && v >= lo;
}
}  // namespace

uint32_t ResolveMarkLimit(double v) {
  if (!IsIntegerAtLeast(v, 2)) return PerfStartOptions::kDefaultLimit;
  return v > 2147483648.0 ? 2147483648u : static_cast<uint32_t>(v);
}

uint32_t ResolveTraceLimit(double v) {
  if (!IsIntegerAtLeast(v, 0)) return PerfStartOptions::kDefaultLimit;
  return v > TraceTimeline::kMaxLimit ? TraceTimeline::kMaxLimit
                                      : static_cast<uint32_t>(v);
}

Recorder::Recorder()
    : start_name_(names_.Intern("start")), end_name_(names_.Intern("end")) {}

StringId Recorder::Intern(std::string_view name) {
  StringId known = names_.Find(name);
  if (!known.is_none()) return known;
  if (recording_ && new_names_ >= kMaxNewNamesPerWindow) {
    ++names_dropped_;
    return StringId::None();
  }
  StringId id = names_.Intern(name);
  if (id.is_none()) {
    ++names_dropped_;
    return id;
  }
  if (recording_) ++new_names_;
  return id;
}

bool Recorder::Start(double now, const PerfStartOptions& options) {
  if (recording_) return false;  // idempotent: keep data and capacity
  ++generation_;
  new_names_ = 0;
  names_dropped_ = 0;
  recording_ = true;
  started_at_ = now;
  aggr_.ResetOpen();
  aggr_.ResetBuckets();
  marks_.Reset(ResolveMarkLimit(options.mark_limit));
  traces_.Reset(ResolveTraceLimit(options.trace_limit), generation_);
  marks_.AddBoundary(start_name_, now);
  return true;
}

Status Recorder::End(double now) {
  if (!recording_) return Status::kNotRecording;
  recording_ = false;
  marks_.AddBoundary(end_name_, now);
  traces_.Finish();
  // Spans still open have no end inside this window: they never count, and
  // their ids go stale.
  aggr_.ResetOpen();

  WindowReport& r = report_;
  r.generation = generation_;
  r.started_at = started_at_;
  r.ended_at = now;
  r.aggregates.clear();
  for (uint32_t n : aggr_.touched()) {
    const AggrStats& s = aggr_.stats(StringId(n));
    AggrResult a;
    a.name = StringId(n);
    a.count = s.histogram.count();
    a.sum = s.sum;
    a.avg = s.sum / static_cast<double>(a.count);
    a.max = s.max;
    a.min = s.min;
    a.p50 = s.histogram.Percentile(0.50, s.min, s.max);
    a.p90 = s.histogram.Percentile(0.90, s.min, s.max);
    a.p99 = s.histogram.Percentile(0.99, s.min, s.max);
    r.aggregates.push_back(a);
  }
  r.marks.assign(marks_.events().begin(), marks_.events().end());
  r.marks_dropped = marks_.dropped();
  r.traces.assign(traces_.events().begin(), traces_.events().end());
  r.traces_dropped = traces_.dropped();
  r.traces_incomplete = traces_.incomplete();
  r.aggregates_dropped = aggr_.dropped();
  r.names_dropped = names_dropped_;
  return Status::kOk;
}

}  // namespace webprof
