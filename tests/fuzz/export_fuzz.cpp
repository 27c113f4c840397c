// Every export format (the registry's writers: Chrome JSON, .cpuprofile,
// Perfetto) over a trace and probe records built from arbitrary bytes —
// names and info texts of any encoding, times of any value, deep and wide
// stacks — with awkward chunk sizes. The JSON formats' output must be one
// valid JSON value; no writer may crash, and the probes' console reporter
// writes the same records.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "export/byte_sink.h"
#include "export/format_registry.h"
#include "export/json_check.h"
#include "fuzz_reader.h"
#include "probes/reporter.h"
#include "probes/window.h"
#include "trace/session.h"

using namespace webprof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader r{data, size};
  Session s({1, 256, 0});
  std::vector<FrameId> frames;
  std::vector<StackId> stacks;
  ExportInput in;
  in.profile = &s.trace();
  Recorder rec;
  rec.Start(0, {});
  while (r.n) {
    switch (r.Byte() % 6) {
      case 0: {
        RawFrame raw{r.Bytes(), r.Bytes(), r.U32() % 7, r.U32() % 7};
        FrameId f = s.trace().InternFrame(raw);
        if (!f.is_none()) frames.push_back(f);
        break;
      }
      case 1: {  // a stack, up to 64 deep
        std::vector<FrameId> stack;
        size_t depth = r.Byte() % 65;
        for (size_t i = 0; i < depth && !frames.empty(); ++i)
          stack.push_back(frames[r.Byte() % frames.size()]);
        StackId id = s.trace().InternStack(stack.data(), stack.size());
        if (!id.is_none()) stacks.push_back(id);
        break;
      }
      case 2:
        s.TakeSample(r.F64(), stacks.empty() || r.Byte() % 4 == 0
                                  ? StackId::None()
                                  : stacks[r.Byte() % stacks.size()]);
        break;
      case 3: {
        ExportMark m{std::string(r.Bytes()), r.F64(), std::string(r.Bytes())};
        in.marks.push_back(m);
        StringId n = rec.Intern(m.name);
        rec.Mark(n, m.timestamp_ms, -1);
        break;
      }
      case 4: {
        double start = r.F64();
        double dur = r.F64();
        in.traces.push_back({std::string(r.Bytes()), start,
                             dur < 0 ? -dur : dur, std::string(r.Bytes())});
        StringId n = rec.Intern(in.traces.back().name);
        int32_t id = rec.TraceStart(n, start, false);
        rec.TraceEnd(id, start + dur, -1);
        break;
      }
      case 5: {
        in.aggregates.push_back(
            {std::string(r.Bytes()), std::string(r.Bytes()), false});
        StringId n = rec.Intern(in.aggregates.back().name);
        int32_t id = rec.AggrStart(n, r.F64());
        rec.AggrEnd(id, r.F64());
        break;
      }
    }
  }
  ExportOptions o;
  for (const ExportFormat& f : ExportFormats()) {
    ByteSink sink(size % 13 + 1);
    if (WriteExport(f.id, in, o, sink) != Status::kOk) std::abort();
    if (std::string(f.extension) == "json" ||
        std::string(f.extension) == "cpuprofile") {
      if (!IsValidJsonValue(sink.ToString())) std::abort();
    }
  }
  if (rec.End(1) != Status::kOk) std::abort();
  ConsoleReporterOptions ro;
  FormatConsoleReport(rec.last_report(), rec.names(), ro, {});
  return 0;
}
