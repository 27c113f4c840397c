#include "export/probe_window.h"

#include "export/byte_sink.h"
#include "export/json_writer.h"

namespace webprof {

std::string AggregateResultJson(const AggrResult& a) {
  ByteSink sink(256);
  JsonWriter w(&sink);
  w.BeginObject();
  w.Key("count");
  w.Int(static_cast<int64_t>(a.count));
  const std::pair<const char*, double> stats[] = {
      {"sum", a.sum}, {"avg", a.avg}, {"max", a.max}, {"min", a.min},
      {"p50", a.p50}, {"p90", a.p90}, {"p99", a.p99}};
  for (const auto& [key, value] : stats) {
    w.Key(key);
    w.Double(value);
  }
  w.EndObject();
  return sink.ToString();
}

void AddWindowReport(const WindowReport& r, const StringTable& names,
                     uint32_t parts, const std::vector<std::string>& infos,
                     ExportInput* in) {
  auto name = [&](StringId id) {
    return id.value < names.size() ? std::string(names.Get(id)) : std::string();
  };
  auto info = [&](int32_t slot) {
    return slot >= 0 && static_cast<size_t>(slot) < infos.size()
               ? infos[slot]
               : std::string();
  };
  if (parts & kWindowAggregates) {
    for (const AggrResult& a : r.aggregates)
      in->aggregates.push_back(
          ExportAggregate{name(a.name), AggregateResultJson(a), true});
  }
  if (parts & kWindowMarks) {
    for (const MarkRecord& m : r.marks)
      in->marks.push_back(ExportMark{name(m.name), m.timestamp, info(m.info)});
  }
  if (parts & kWindowTraces) {
    for (const TraceRecord& t : r.traces)
      in->traces.push_back(
          ExportTrace{name(t.name), t.timestamp, t.duration, info(t.info)});
  }
}

}  // namespace webprof
