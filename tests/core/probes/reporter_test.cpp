// The console reporter's formatting rules (seed 004 "Console Reporter").
#include "probes/reporter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace webprof {
namespace {

// A window with aggregates a (sum 3, count 3), b:x (sum 10, count 1),
// traces b:t and c:t, marks b:m (info 0) and c:m.
class ConsoleReport : public ::testing::Test {
 protected:
  void SetUp() override {
    StringId a = r.Intern("a"), bx = r.Intern("b:x");
    StringId bt = r.Intern("b:t"), ct = r.Intern("c:t");
    StringId bm = r.Intern("b:m"), cm = r.Intern("c:m");
    r.Start(0, PerfStartOptions{});
    for (int i = 0; i < 3; ++i) r.AggrEnd(r.AggrStart(a, 0), 1);
    r.AggrEnd(r.AggrStart(bx, 0), 10);
    r.TraceEnd(r.TraceStart(bt, 1, false), 2, kNoInfo);
    r.TraceEnd(r.TraceStart(ct, 1, false), 3, kNoInfo);
    r.Mark(bm, 4, 0);
    r.Mark(cm, 5, kNoInfo);
    r.End(6);
    infos.resize(1);
    infos[0] = InfoText{true, true, "{\"route\":\"/g\"}"};
  }
  std::string Format(const ConsoleReporterOptions& o) {
    return FormatConsoleReport(r.last_report(), r.names(), o, infos);
  }
  Recorder r;
  std::vector<InfoText> infos;
};

TEST_F(ConsoleReport, SortBySumDefaultAndCount) {
  std::string s = Format(ConsoleReporterOptions{});
  EXPECT_LT(s.find("  b:x\n"), s.find("  a\n"));
  ConsoleReporterOptions o;
  o.sort_by = SortKey::kCount;
  s = Format(o);
  EXPECT_LT(s.find("  a\n"), s.find("  b:x\n"));
  o.sort_by = SortKey::kName;
  s = Format(o);
  EXPECT_LT(s.find("  a\n"), s.find("  b:x\n"));
}

// The sort is stable: equal keys keep the recorder's order (first
// recorded first), across many merge passes and odd run lengths.
TEST(ConsoleReportSort, EqualKeysKeepTheirOrder) {
  Recorder r;
  std::vector<StringId> names;
  for (int i = 0; i < 37; ++i)
    names.push_back(r.Intern("n" + std::to_string(i)));
  r.Start(0, PerfStartOptions{});
  // Sums cycle 1, 2, 3, 4, 5: seven or eight names share each sum.
  for (int i = 0; i < 37; ++i) r.AggrEnd(r.AggrStart(names[i], 0), 1 + i % 5);
  r.End(10);
  const std::string s = FormatConsoleReport(r.last_report(), r.names(),
                                            ConsoleReporterOptions{}, {});
  size_t last = 0;
  for (int sum = 5; sum >= 1; --sum) {
    for (int i = sum - 1; i < 37; i += 5) {
      size_t at = s.find("  n" + std::to_string(i) + "\n");
      ASSERT_NE(at, std::string::npos) << i;
      EXPECT_GT(at, last) << "n" << i << " (sum " << sum << ") out of order\n"
                          << s;
      last = at;
    }
  }
}

TEST_F(ConsoleReport, ParseSortKey) {
  SortKey k;
  EXPECT_EQ(ParseSortKey("p99", &k), Status::kOk);
  EXPECT_EQ(k, SortKey::kP99);
  EXPECT_EQ(ParseSortKey("bogus", &k), Status::kInvalidSortKey);
}

TEST_F(ConsoleReport, HeaderOnlyWhenAsked) {
  EXPECT_NE(Format(ConsoleReporterOptions{}).find("[webprof] probes window #1"),
            std::string::npos);
  ConsoleReporterOptions o;
  o.header = false;
  EXPECT_EQ(Format(o).find("[webprof]"), std::string::npos);
}

TEST_F(ConsoleReport, PrefixFilterKeepsBoundariesAndOrder) {
  ConsoleReporterOptions o;
  o.has_prefix = true;
  o.prefix = "b:";
  std::string s = Format(o);
  EXPECT_NE(s.find("  b:x"), std::string::npos);
  EXPECT_EQ(s.find("  a\n"), std::string::npos);
  EXPECT_NE(s.find("  b:t"), std::string::npos);
  EXPECT_EQ(s.find("  c:t"), std::string::npos);
  EXPECT_NE(s.find("  b:m"), std::string::npos);
  EXPECT_EQ(s.find("  c:m"), std::string::npos);
  EXPECT_NE(s.find("  start"), std::string::npos);
  EXPECT_NE(s.find("  end"), std::string::npos);
  EXPECT_LT(s.find("  start"), s.find("  b:m"));
  EXPECT_LT(s.find("  b:m"), s.find("  end"));
}

TEST_F(ConsoleReport, PredicateVerdictsPerName) {
  ConsoleReporterOptions o;
  o.allowed.assign(r.names().size(), 0);
  o.allowed[r.names().Find("c:t").value] = 1;
  std::string s = Format(o);
  EXPECT_NE(s.find("  c:t"), std::string::npos);
  EXPECT_EQ(s.find("  b:t"), std::string::npos);
  EXPECT_EQ(s.find("  b:x"), std::string::npos);
  EXPECT_NE(s.find("  end"), std::string::npos);
}

TEST_F(ConsoleReport, InfoColumnOnlyWhenSomeShownEventHasInfo) {
  std::string s = Format(ConsoleReporterOptions{});
  // Marks have info, traces do not.
  EXPECT_NE(s.find("start  name  info\n"), std::string::npos);
  EXPECT_NE(s.find("duration  name\n"), std::string::npos);
  EXPECT_NE(s.find("{\"route\":\"/g\"}"), std::string::npos);
  ConsoleReporterOptions o;
  o.has_prefix = true;
  o.prefix = "c:";  // hides the only mark with info
  s = Format(o);
  EXPECT_EQ(s.find("info"), std::string::npos);
}

TEST_F(ConsoleReport, UnprintableInfoDoesNotBreakOutput) {
  infos[0] = InfoText{true, false, ""};
  std::string s = Format(ConsoleReporterOptions{});
  EXPECT_NE(s.find("b:m  [unprintable]"), std::string::npos);
  EXPECT_NE(s.find("  c:m"), std::string::npos);
  EXPECT_NE(s.find("  end"), std::string::npos);
}

TEST(ConsoleReportNotices, DroppedAndIncompleteEachNoticed) {
  Recorder r;
  StringId t = r.Intern("t");
  PerfStartOptions o;
  o.mark_limit = 2;
  o.trace_limit = 1;
  r.Start(0, o);
  r.Mark(t, 1, kNoInfo);
  r.TraceStart(t, 1, false);
  r.TraceStart(t, 1, false);
  r.End(2);
  std::string s = FormatConsoleReport(r.last_report(), r.names(), {}, {});
  EXPECT_NE(s.find("notice: 1 marks dropped"), std::string::npos);
  EXPECT_NE(s.find("notice: 1 traces dropped"), std::string::npos);
  EXPECT_NE(s.find("notice: 1 traces incomplete"), std::string::npos);
  Recorder clean;
  clean.Start(0, PerfStartOptions{});
  clean.End(1);
  s = FormatConsoleReport(clean.last_report(), clean.names(), {}, {});
  EXPECT_EQ(s.find("notice"), std::string::npos);
}

TEST(ConsoleReportHeader, ManualDataHasNoWindowNumber) {
  Recorder r;
  WindowReport manual;  // generation 0: not from a window of this Recorder
  std::string s = FormatConsoleReport(manual, r.names(), {}, {});
  EXPECT_EQ(s.rfind("[webprof] probes window, 0.000 ms\n", 0), 0u);
}

}  // namespace
}  // namespace webprof
