// A probes window exported straight from the recorder: the same rows, names
// and info texts the JS path sends, aggregates as JSON.stringify writes them.
#include "export/probe_window.h"

#include <gtest/gtest.h>

#include <limits>

#include "export/format_chrome_trace.h"
#include "export/json_check.h"
#include "probes/window.h"

namespace webprof {
namespace {

TEST(ProbeWindow, AggregateJsonIsWhatJsonStringifyWrites) {
  AggrResult a;
  a.count = 3;
  a.sum = 0.000015;
  a.avg = 0.000005;
  a.max = 1e21;
  a.min = -0.0;
  a.p50 = 1.5e-7;
  a.p90 = 2.5;
  a.p99 = std::numeric_limits<double>::quiet_NaN();
  // JSON.stringify({count:3,sum:0.000015,avg:0.000005,max:1e21,min:-0,
  //                 p50:1.5e-7,p90:2.5,p99:NaN}) in V8:
  EXPECT_EQ(AggregateResultJson(a),
            "{\"count\":3,\"sum\":0.000015,\"avg\":0.000005,\"max\":1e+21,"
            "\"min\":0,\"p50\":1.5e-7,\"p90\":2.5,\"p99\":null}");
}

TEST(ProbeWindow, RecordedWindowBecomesExportRowsInRecorderOrder) {
  Recorder rec;
  StringId work = rec.Intern("work"), tick = rec.Intern("tick");
  rec.Start(100, PerfStartOptions{});
  int32_t id = rec.AggrStart(work, 101);
  rec.AggrEnd(id, 103);
  rec.Mark(tick, 104, 0);
  int32_t t = rec.TraceStart(work, 105, false);
  rec.TraceEnd(t, 107.5, 1);
  rec.End(110);
  ExportInput in;
  AddWindowReport(rec.last_report(), rec.names(),
                  kWindowAggregates | kWindowMarks | kWindowTraces,
                  {"{\"a\":1}", "[2]"}, &in);
  ASSERT_EQ(in.aggregates.size(), 1u);
  EXPECT_EQ(in.aggregates[0].name, "work");
  EXPECT_TRUE(in.aggregates[0].trusted);
  EXPECT_TRUE(IsValidJsonValue(in.aggregates[0].result_json));
  ASSERT_EQ(in.marks.size(), 3u);  // start boundary, tick, end boundary
  EXPECT_EQ(in.marks[1].name, "tick");
  EXPECT_EQ(in.marks[1].timestamp_ms, 104);
  EXPECT_EQ(in.marks[1].info_json, "{\"a\":1}");
  EXPECT_EQ(in.marks[0].info_json, "");
  ASSERT_EQ(in.traces.size(), 1u);
  EXPECT_EQ(in.traces[0].duration_ms, 2.5);
  EXPECT_EQ(in.traces[0].info_json, "[2]");
  ExportInput only_aggr;
  AddWindowReport(rec.last_report(), rec.names(), kWindowAggregates, {},
                  &only_aggr);
  EXPECT_TRUE(only_aggr.marks.empty() && only_aggr.traces.empty());
  ByteSink sink;
  WriteChromeTrace(in, ChromeTraceOptions{}, sink);
  EXPECT_TRUE(IsValidJsonValue(sink.ToString()));
}

}  // namespace
}  // namespace webprof
