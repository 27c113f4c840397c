// The probes part of an export read straight from the recorder's own last
// window (Recorder::last_report()), instead of from what JS rebuilt of it:
// names resolve through the recorder's table, times and statistics are its
// numbers, and each aggregate's result object is written here as JSON text
// (numbers laid out as JSON.stringify does), so it is not checked again.
// Only the info values are JS objects: the glue passes their JSON text per
// info slot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "export/export_input.h"
#include "probes/window.h"
#include "trace/string_table.h"

namespace webprof {

// Which parts of the window to add (bits).
enum WindowPart : uint32_t {
  kWindowAggregates = 1,
  kWindowMarks = 2,
  kWindowTraces = 4,
};

// Appends the selected parts of `report` to `in`, in the recorder's order.
// `infos[slot]` is the JSON text of an event's info ("" = none; a slot past
// the end reads as none).
void AddWindowReport(const WindowReport& report, const StringTable& names,
                     uint32_t parts, const std::vector<std::string>& infos,
                     ExportInput* in);

// {"count":…,"sum":…,"avg":…,"max":…,"min":…,"p50":…,"p90":…,"p99":…}: the
// object the JS results Map holds, as JSON.stringify writes it.
std::string AggregateResultJson(const AggrResult& a);

}  // namespace webprof
