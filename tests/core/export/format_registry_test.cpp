// The format registry: the built-ins dispatch to their writers, and a format
// added in this one file (a dummy writer) is listed, found and written
// through the same calls every consumer uses, then removed.
#include "export/format_registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "export/format_chrome_trace.h"
#include "export/format_cpuprofile.h"
#include "export/format_perfetto.h"
#include "support/export_fixture.h"

namespace webprof {
namespace {

using testing::Fixture;

TEST(FormatRegistry, BuiltinsHaveUniqueIdsKeysAndFileNames) {
  std::set<int32_t> ids;
  std::set<std::string> keys, files;
  for (const ExportFormat& f : ExportFormats()) {
    EXPECT_TRUE(ids.insert(f.id).second) << f.key;
    EXPECT_TRUE(keys.insert(f.key).second) << f.key;
    EXPECT_TRUE(
        files.insert(std::string(f.file_stem) + "." + f.extension).second)
        << f.key;
    EXPECT_NE(f.write, nullptr);
  }
  EXPECT_EQ(FindExportFormat("chrome")->id,
            int32_t(ExportFormatId::kChromeTrace));
  EXPECT_EQ(FindExportFormat(int32_t(ExportFormatId::kPerfetto))->key,
            std::string("perfetto"));
  EXPECT_EQ(FindExportFormat("nope"), nullptr);
}

TEST(FormatRegistry, BuiltinsWriteWhatTheirWritersWrite) {
  Fixture f(300);
  ExportOptions o;
  o.thread.thread_name = "worker";
  ChromeTraceOptions co;
  co.thread = o.thread;
  PerfettoOptions po;
  po.thread = o.thread;
  ByteSink direct, via;
  WriteChromeTrace(f.input, co, direct);
  ASSERT_EQ(WriteExport(int32_t(ExportFormatId::kChromeTrace), f.input, o, via),
            Status::kOk);
  EXPECT_EQ(via.ToString(), direct.ToString());
  direct.Clear();
  WriteCpuProfile(f.input, direct);
  ASSERT_EQ(WriteExport(int32_t(ExportFormatId::kCpuProfile), f.input, o, via),
            Status::kOk);
  EXPECT_EQ(via.ToString(), direct.ToString());
  direct.Clear();
  WritePerfettoTrace(f.input, po, direct);
  ASSERT_EQ(WriteExport(int32_t(ExportFormatId::kPerfetto), f.input, o, via),
            Status::kOk);
  EXPECT_EQ(via.ToString(), direct.ToString());
}

TEST(FormatRegistry, UnknownIdIsAnErrorWithEmptyOutput) {
  Fixture f(3);
  ByteSink out;
  out.Append("stale");
  EXPECT_EQ(WriteExport(999, f.input, ExportOptions{}, out),
            Status::kInvalidArgument);
  EXPECT_EQ(out.size(), 0u);
}

// The dummy format: one line per sample count and the thread name.
void WriteDummy(const ExportInput& in, const ExportOptions& o, ByteSink& out) {
  size_t n = in.profile ? in.profile->samples().size() : 0;
  out.Append("samples=" + std::to_string(n) +
             " thread=" + o.thread.thread_name + "\n");
}
constexpr int32_t kDummyId = 1000;
const ExportFormat kDummy = {kDummyId, "dummy",      "Dummy text", "dummy",
                             "txt",    "text/plain", &WriteDummy};

TEST(FormatRegistry, AFormatAddedInOneFileIsListedWrittenAndRemoved) {
  ASSERT_EQ(RegisterExportFormat(kDummy), Status::kOk);
  EXPECT_EQ(ExportFormats().back().key, std::string("dummy"));
  EXPECT_EQ(FindExportFormat("dummy")->id, kDummyId);
  Fixture f(7);
  ExportOptions o;
  o.thread.thread_name = "t1";
  ByteSink out;
  ASSERT_EQ(WriteExport(kDummyId, f.input, o, out), Status::kOk);
  EXPECT_EQ(out.ToString(), "samples=7 thread=t1\n");
  // A second format with the same id or key is refused.
  EXPECT_EQ(RegisterExportFormat(kDummy), Status::kInvalidArgument);
  ExportFormat same_key = kDummy;
  same_key.id = kDummyId + 1;
  EXPECT_EQ(RegisterExportFormat(same_key), Status::kInvalidArgument);
  EXPECT_TRUE(UnregisterExportFormat(kDummyId));
  EXPECT_EQ(FindExportFormat("dummy"), nullptr);
  EXPECT_EQ(WriteExport(kDummyId, f.input, o, out), Status::kInvalidArgument);
  EXPECT_FALSE(UnregisterExportFormat(kDummyId));
}

TEST(FormatRegistry, IncompleteEntriesAndBuiltinRemovalAreRefused) {
  ExportFormat no_writer = kDummy;
  no_writer.write = nullptr;
  EXPECT_EQ(RegisterExportFormat(no_writer), Status::kInvalidArgument);
  ExportFormat no_ext = kDummy;
  no_ext.extension = "";
  EXPECT_EQ(RegisterExportFormat(no_ext), Status::kInvalidArgument);
  size_t n = ExportFormats().size();
  EXPECT_FALSE(UnregisterExportFormat(int32_t(ExportFormatId::kCpuProfile)));
  EXPECT_EQ(ExportFormats().size(), n);
}

}  // namespace
}  // namespace webprof
