// The console reporter's text (seed 004 "Console Reporter").
//
// FormatConsoleReport turns a WindowReport into the text the JS
// consoleReporter prints, so the formatting rules live (and are tested) in
// one place:
// - sortBy orders the aggregates only (descending; `name` ascending); traces
//   and marks keep their recorded order;
// - the filter applies to aggregates, traces and explicit marks; the start
//   and end boundaries are never hidden. A string filter is a name prefix;
//   a JS predicate is evaluated by the glue, which passes the verdict per
//   name id in `allowed`;
// - `header` prints the title line;
// - the info column appears in a table only when one of its shown events
//   has info;
// - dropped marks, dropped traces and incomplete traces each get a notice;
// - info arrives already JSON-stringified by the glue, or flagged
//   unprintable (a cycle, a BigInt, a throwing toJSON): such a cell reads
//   `[unprintable]` and the rest of the output is unaffected.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "probes/window.h"
#include "trace/string_table.h"

namespace webprof {

enum class SortKey : int32_t {
  kSum = 0,
  kCount,
  kAvg,
  kMax,
  kMin,
  kP50,
  kP90,
  kP99,
  kName
};
// "sum", "count", ... "name"; kInvalidSortKey otherwise.
Status ParseSortKey(std::string_view s, SortKey* out);

struct InfoText {
  bool present = false;    // the slot holds an info value
  bool printable = false;  // JSON.stringify succeeded
  std::string json;
};

struct ConsoleReporterOptions {
  SortKey sort_by = SortKey::kSum;
  bool header = true;
  bool has_prefix = false;
  std::string prefix;
  // Non-empty: allowed[name id] != 0 decides (ids past the end: hidden).
  std::vector<uint8_t> allowed;
};

// `infos` is indexed by the info slots the report's events carry.
std::string FormatConsoleReport(const WindowReport& report,
                                const StringTable& names,
                                const ConsoleReporterOptions& options,
                                const std::vector<InfoText>& infos);

}  // namespace webprof
