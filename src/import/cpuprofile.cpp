#include "import/cpuprofile.h"

#include <algorithm>
#include <cmath>

#include "base/time_units.h"

namespace webprof {

bool IsCpuProfile(std::string_view text) {
  JsonCursor c(text.substr(0, 64));
  std::string key;
  return c.BeginObject() && c.NextKey(&key) && key == "nodes";
}

bool ReadCpuProfile(JsonCursor& c, RawCpuProfile* out, std::string* error) {
  std::vector<int64_t> deltas, stamps;
  bool has_nodes = false, has_samples = false, has_deltas = false,
       has_stamps = false;
  if (!c.BeginObject()) return false;
  std::string key;
  while (c.NextKey(&key)) {
    if (key == "nodes") {
      if (!c.BeginArray()) return false;
      while (c.NextElement())
        if (!out->tree.ReadNode(c, error)) return false;
      has_nodes = true;
    } else if (key == "startTime" || key == "endTime") {
      double v;
      if (!c.Number(&v)) return false;
      if (const char* problem = ProfileTimeProblem(v)) {
        *error = "\"" + key + "\" " + problem;
        return false;
      }
      (key == "startTime" ? out->start_us : out->end_us) = v;
    } else if (key == "samples") {
      if (!ReadIntArray(c, &out->samples.nodes)) return false;
      has_samples = true;
    } else if (key == "timeDeltas") {
      if (!ReadIntArray(c, &deltas)) return false;
      has_deltas = true;
    } else if (key == "timestamps") {
      if (!ReadIntArray(c, &stamps)) return false;
      has_stamps = true;
    } else if (!c.Skip()) {
      return false;
    }
  }
  if (!c.ok()) return false;
  const size_t n = out->samples.nodes.size();
  if (!has_nodes) {
    *error = "no \"nodes\" member";
  } else if (!has_samples) {
    *error = "no \"samples\" member (a hitCount-only profile has no times)";
  } else if (!has_deltas && !has_stamps) {
    *error = "\"samples\" without \"timeDeltas\" or \"timestamps\"";
  } else if (has_deltas && deltas.size() != n) {
    *error = std::to_string(n) + " samples but " +
             std::to_string(deltas.size()) + " timeDeltas";
  } else if (!has_deltas && stamps.size() != n) {
    *error = std::to_string(n) + " samples but " +
             std::to_string(stamps.size()) + " timestamps";
  } else if (has_deltas && !std::isfinite(out->start_us)) {
    *error = "\"timeDeltas\" without a \"startTime\"";
  }
  if (!error->empty()) return false;
  if (has_deltas) {
    AddDeltas(out->start_us, deltas, &out->samples.times_us);
  } else {
    for (int64_t t : stamps)
      out->samples.times_us.push_back(static_cast<double>(t));
    if (!std::isfinite(out->start_us))
      out->start_us = n ? out->samples.times_us[0] : 0;
  }
  return out->tree.Validate(error) &&
         CheckSamples(out->tree, &out->samples, error);
}

Status ReadCpuProfileText(std::string_view json, RawCpuProfile* out,
                          std::string* error) {
  error->clear();
  JsonCursor c(json);
  if (!ReadCpuProfile(c, out, error) || !c.AtEnd()) {
    if (error->empty()) *error = c.error();
    *error = ".cpuprofile: " + *error;
    return Status::kMalformedProfile;
  }
  return Status::kOk;
}

double RawCpuProfileOriginUs(const RawCpuProfile& p) {
  double origin = p.start_us;
  for (double t : p.samples.times_us) origin = std::min(origin, t);
  return origin;
}

double RawCpuProfileEndMs(const RawCpuProfile& p, double origin_us,
                          double window_end_us) {
  if (std::isfinite(p.end_us) && p.end_us >= origin_us)
    return (std::min(p.end_us, window_end_us) - origin_us) / 1000;
  return std::numeric_limits<double>::quiet_NaN();
}

Status ImportCpuProfile(std::string_view json,
                        const CpuProfileImportOptions& options, Session* out,
                        CpuProfileImportInfo* info, std::string* error) {
  *info = CpuProfileImportInfo{};
  error->clear();
  // NaN: not given (the default below); anything else obeys the rule.
  if (!std::isnan(options.time_origin_us))
    if (const char* problem = ProfileTimeProblem(options.time_origin_us)) {
      *error = std::string("timeOrigin ") + problem;
      return Status::kInvalidArgument;
    }
  RawCpuProfile p;
  Status st = ReadCpuProfileText(json, &p, error);
  if (st != Status::kOk) return st;
  double origin = options.time_origin_us;
  if (!std::isfinite(origin)) origin = RawCpuProfileOriginUs(p);
  p.tree.Intern(&out->trace());
  info->start_us = p.start_us;
  info->end_us = p.end_us;
  info->time_origin_us = origin;
  info->end_ms = RawCpuProfileEndMs(p, origin, options.window_end_us);
  info->nodes = static_cast<uint32_t>(p.tree.size());
  info->profile_samples = static_cast<uint32_t>(p.samples.nodes.size());
  info->samples =
      AppendSamples(p.tree, p.samples, origin, options.window_start_us,
                    options.window_end_us, out, &info->truncated);
  return Status::kOk;
}

}  // namespace webprof
