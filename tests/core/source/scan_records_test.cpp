// Scan records: a scan crosses from the tools module to the page's core as
// u32 words; what arrives answers every query as the scan it came from, and
// words that are not such records are refused without touching the target.
#include "source/scan_records.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "source/source_index.h"

namespace webprof {
namespace {

// Every position of `text` (1-based lines and columns up to the longest
// line + 1) resolves alike in `a` and `b`.
void ExpectSameAnswers(const SourceScan& a, const SourceScan& b,
                       const std::string& text) {
  uint32_t lines = 1, width = 1, col = 1;
  for (char c : text) {
    if (c == '\n') {
      ++lines;
      col = 1;
    } else if (++col > width) {
      width = col;
    }
  }
  for (uint32_t l = 1; l <= lines + 1; ++l) {
    for (uint32_t c = 1; c <= width + 1; ++c) {
      const FunctionDefinition* fa = a.Resolve(l, c);
      const FunctionDefinition* fb = b.Resolve(l, c);
      ASSERT_EQ(fa == nullptr, fb == nullptr) << l << ":" << c;
      if (fa) {
        EXPECT_EQ(fa->name, fb->name) << l << ":" << c;
        EXPECT_TRUE(fa->definition == fb->definition) << l << ":" << c;
      }
      SourcePosition sa, sb;
      ASSERT_EQ(a.ScriptStart(l, c, &sa), b.ScriptStart(l, c, &sb));
      EXPECT_EQ(a.IsEntryCheck(l, c), b.IsEntryCheck(l, c)) << l << ":" << c;
    }
  }
}

SourceScan Scanned(const std::string& text, bool html) {
  SourceScan scan;
  Status s = html ? scan.ScanHtml(text, ScanLimits())
                  : scan.ScanScript(text, ScanLimits());
  EXPECT_EQ(s, Status::kOk);
  return scan;
}

// `in` crossed as records: encoded, then decoded into a fresh scan.
SourceScan RoundTripped(const SourceScan& in) {
  std::vector<uint32_t> words;
  EncodeScan(in, &words);
  SourceScan out;
  EXPECT_EQ(DecodeScan(words.data(), words.size(), &out), Status::kOk);
  return out;
}

TEST(ScanRecordsTest, AScriptRoundTripsWithNamesNestingAndEntryChecks) {
  const std::string text =
      "function outer(a) {\n"
      "  const inner = (x) => x + 1;\n"
      "  class K { get v() { return 1; } m() { __wp$s(); return 2; } }\n"
      "  return { 'é': function () {}, [a]: function () {} };\n"
      "}\n"
      "outer(1);\n";
  SourceScan in = Scanned(text, false);
  SourceScan out = RoundTripped(in);
  ASSERT_EQ(out.functions().size(), in.functions().size());
  for (size_t i = 0; i < in.functions().size(); ++i) {
    const FunctionDefinition& a = in.functions()[i];
    const FunctionDefinition& b = out.functions()[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_TRUE(a.begin == b.begin && a.end == b.end);
    EXPECT_EQ(a.parent, b.parent) << i;
    EXPECT_TRUE(a.entry_check == b.entry_check);
  }
  EXPECT_EQ(out.scripts_scanned(), 1u);
  ExpectSameAnswers(in, out, text);
}

TEST(ScanRecordsTest, AnHtmlDocumentKeepsItsScriptsAndSkippedCount) {
  const std::string doc =
      "<p>x</p><script>function a() {}\n</script>\n"
      "<script>function (</script>\n"
      "<script>\n  var b = () => 1;</script>";
  SourceScan in = Scanned(doc, true);
  SourceScan out = RoundTripped(in);
  EXPECT_EQ(out.scripts().size(), 2u);
  EXPECT_EQ(out.scripts_scanned(), 2u);
  EXPECT_EQ(out.scripts_skipped(), 1u);
  ExpectSameAnswers(in, out, doc);
}

TEST(ScanRecordsTest, WordsThatAreNotRecordsAreRefusedAndChangeNothing) {
  SourceScan in = Scanned("function f() {}\nfunction g() {}\n", false);
  std::vector<uint32_t> good;
  EncodeScan(in, &good);
  SourceScan target = Scanned("var h = function () {};", false);
  auto refused = [&](std::vector<uint32_t> words) {
    EXPECT_EQ(DecodeScan(words.data(), words.size(), &target),
              Status::kInvalidArgument);
    ASSERT_EQ(target.functions().size(), 1u);
    EXPECT_EQ(target.functions()[0].name, "h");
  };
  refused({});
  refused(std::vector<uint32_t>(good.begin(), good.end() - 1));  // short
  auto bad = good;
  bad.push_back(0);  // trailing word
  refused(bad);
  bad = good;
  bad[0] = 99;  // version
  refused(bad);
  bad = good;
  bad[2] = 0xFFFFFFFFu;  // function count past the words (no wrap)
  refused(bad);
  // The first function row's name slice past the names.
  const size_t row = 6 + 4 * good[1];
  bad = good;
  bad[row] = good[5];
  bad[row + 1] = 1;
  refused(bad);
  bad = good;
  bad[row] = 0xFFFFFFFFu;
  refused(bad);
  bad = good;  // f and g swapped: not in a scan's order
  std::swap_ranges(bad.begin() + row, bad.begin() + row + 12,
                   bad.begin() + row + 12);
  refused(bad);
  bad = good;
  bad[row + 6] = 0;  // ends before it begins
  bad[row + 7] = 0;
  refused(bad);
}

TEST(ScanRecordsTest, TheIndexTakesRecordsPerUrl) {
  SourceIndex index;
  std::vector<uint32_t> words;
  EncodeScan(Scanned("function f() {}", false), &words);
  ASSERT_EQ(index.AddRecords("https://x.test/a.js", words.data(), words.size()),
            Status::kOk);
  const SourceScan* a = index.Find("https://x.test/a.js");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(a->Resolve(1, 14), nullptr);
  EXPECT_EQ(a->Resolve(1, 14)->name, "f");
  EXPECT_EQ(index.AddRecords("https://x.test/a.js", words.data(), 3),
            Status::kInvalidArgument);
  EXPECT_EQ(index.Find("https://x.test/a.js"), a) << "kept on error";
}

}  // namespace
}  // namespace webprof
