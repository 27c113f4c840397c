#include "probes/reporter.h"

#include <algorithm>
#include <string>

#include "base/decimal.h"
#include "base/stable_sort.h"

namespace webprof {

namespace {

constexpr std::string_view kSortNames[] = {"sum", "count", "avg", "max", "min",
                                           "p50", "p90",   "p99", "name"};

bool Shown(StringId name, const StringTable& names,
           const ConsoleReporterOptions& o) {
  if (!o.allowed.empty()) {
    return name.value < o.allowed.size() && o.allowed[name.value] != 0;
  }
  if (!o.has_prefix) return true;
  std::string_view n = names.Get(name);
  return n.substr(0, o.prefix.size()) == o.prefix;
}

double Key(const AggrResult& a, SortKey k) {
  switch (k) {
    case SortKey::kCount:
      return static_cast<double>(a.count);
    case SortKey::kAvg:
      return a.avg;
    case SortKey::kMax:
      return a.max;
    case SortKey::kMin:
      return a.min;
    case SortKey::kP50:
      return a.p50;
    case SortKey::kP90:
      return a.p90;
    case SortKey::kP99:
      return a.p99;
    default:
      return a.sum;
  }
}

// A fixed-width numeric cell (3 decimals, ms): printf's "%12.3f", written by
// base/decimal.h (no printf in the core).
void Num(std::string* out, double v) { AppendFixed(v, 12, 3, out); }

void Name(std::string* out, std::string_view n) {
  out->append("  ");
  out->append(n);
}

bool HasInfo(int32_t slot, const std::vector<InfoText>& infos) {
  return slot >= 0 && static_cast<size_t>(slot) < infos.size() &&
         infos[slot].present;
}

void Info(std::string* out, int32_t slot, const std::vector<InfoText>& infos) {
  if (!HasInfo(slot, infos)) return;
  out->append("  ");
  const InfoText& i = infos[slot];
  out->append(i.printable ? i.json : std::string("[unprintable]"));
}

void Count(std::string* out, const char* what, uint64_t n) {
  out->append("notice: ");
  AppendUnsigned(n, out);
  out->append(1, ' ');
  out->append(what).append(1, '\n');
}

}  // namespace

Status ParseSortKey(std::string_view s, SortKey* out) {
  for (size_t i = 0; i < std::size(kSortNames); ++i) {
    if (s == kSortNames[i]) {
      *out = static_cast<SortKey>(i);
      return Status::kOk;
    }
  }
  return Status::kInvalidSortKey;
}

std::string FormatConsoleReport(const WindowReport& r, const StringTable& names,
                                const ConsoleReporterOptions& o,
                                const std::vector<InfoText>& infos) {
  std::string out;
  if (o.header) {
    out.append("[webprof] probes window");
    if (r.generation != 0) {  // 0: data from a manual reporter call
      out.append(" #");
      AppendUnsigned(r.generation, &out);
    }
    out.append(", ");
    AppendFixed(r.ended_at - r.started_at, 0, 3, &out);
    out.append(" ms\n");
  }

  std::vector<const AggrResult*> aggr;
  for (const AggrResult& a : r.aggregates) {
    if (Shown(a.name, names, o)) aggr.push_back(&a);
  }
  SortKey k = o.sort_by;
  StableSort(&aggr, [&](const AggrResult* a, const AggrResult* b) {
    if (k == SortKey::kName) return names.Get(a->name) < names.Get(b->name);
    return Key(*a, k) > Key(*b, k);
  });
  out.append("aggregates (ms, sorted by ");
  out.append(kSortNames[static_cast<int>(k)]);
  out.append(")\n");
  out.append(
      "       count         sum         avg         max         min"
      "         p50         p90         p99  name\n");
  for (const AggrResult* a : aggr) {
    AppendFixed(static_cast<double>(a->count), 12, 0, &out);
    for (double v : {a->sum, a->avg, a->max, a->min, a->p50, a->p90, a->p99}) {
      Num(&out, v);
    }
    Name(&out, names.Get(a->name));
    out.push_back('\n');
  }

  std::vector<const TraceRecord*> traces;
  bool trace_info = false;
  for (const TraceRecord& t : r.traces) {
    if (!Shown(t.name, names, o)) continue;
    traces.push_back(&t);
    trace_info |= HasInfo(t.info, infos);
  }
  out.append("traces (ms)\n       start    duration  name");
  out.append(trace_info ? "  info\n" : "\n");
  for (const TraceRecord* t : traces) {
    Num(&out, r.StartOf(*t));
    Num(&out, t->duration);
    Name(&out, names.Get(t->name));
    if (trace_info) Info(&out, t->info, infos);
    out.push_back('\n');
  }

  std::vector<const MarkRecord*> marks;
  bool mark_info = false;
  for (const MarkRecord& m : r.marks) {
    if (!m.boundary && !Shown(m.name, names, o)) continue;
    marks.push_back(&m);
    mark_info |= HasInfo(m.info, infos);
  }
  out.append("marks (ms)\n       start  name");
  out.append(mark_info ? "  info\n" : "\n");
  for (const MarkRecord* m : marks) {
    Num(&out, r.StartOf(*m));
    Name(&out, names.Get(m->name));
    if (mark_info) Info(&out, m->info, infos);
    out.push_back('\n');
  }

  if (r.marks_dropped)
    Count(&out, "marks dropped (markLimit)", r.marks_dropped);
  if (r.traces_dropped) {
    Count(&out, "traces dropped (traceLimit)", r.traces_dropped);
  }
  if (r.traces_incomplete) {
    Count(&out, "traces incomplete (not ended in the window)",
          r.traces_incomplete);
  }
  if (r.aggregates_dropped)
    Count(&out, "aggregate spans dropped (1024 names per window)",
          r.aggregates_dropped);
  if (r.names_dropped)
    Count(&out, "probe calls dropped (new probe names: 4096 per window)",
          r.names_dropped);
  return out;
}

}  // namespace webprof
