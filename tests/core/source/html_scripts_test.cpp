// The <script> finder shared by the scanner and the whole-document
// transform: offsets of inline content, kinds, src and integrity, and the
// places that only look like scripts (comments, other tags, data blocks).
#include "source/html_scripts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace webprof {
namespace {

std::vector<HtmlScript> Find(std::string_view doc) {
  std::vector<HtmlScript> out;
  FindHtmlScripts(doc, &out);
  return out;
}

std::string Content(std::string_view doc, const HtmlScript& s) {
  return std::string(
      doc.substr(s.content_begin, s.content_end - s.content_begin));
}

TEST(HtmlScripts, InlineExternalModuleAndDataBlocks) {
  std::string doc =
      "<!doctype html>\n<SCRIPT>a()</SCRIPT>\n"
      "<script src='x.js?a=1&amp;b=2' integrity=\"sha384-q\"></script>\n"
      "<script type=\"module\">import './m.js';</script>\n"
      "<script type=application/json>{\"x\": 1}</script>\n"
      "<script data-x=\"a>b\">c()</script>";
  auto s = Find(doc);
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(Content(doc, s[0]), "a()");
  EXPECT_TRUE(s[0].javascript);
  EXPECT_FALSE(s[0].external());
  EXPECT_TRUE(s[1].external());
  EXPECT_TRUE(s[1].integrity);
  EXPECT_EQ(doc.substr(s[1].src_begin, s[1].src_end - s[1].src_begin),
            "x.js?a=1&amp;b=2");
  EXPECT_TRUE(s[2].module);
  EXPECT_EQ(Content(doc, s[2]), "import './m.js';");
  EXPECT_FALSE(s[3].javascript);
  EXPECT_EQ(Content(doc, s[4]), "c()");  // `>` inside a quoted value
}

TEST(HtmlScripts, CommentsAndLookalikesAreNotScripts) {
  std::string doc =
      "<!-- <script>no()</script> --><scripty>x</scripty>"
      "<script>yes()</script><script>unclosed(";
  auto s = Find(doc);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(Content(doc, s[0]), "yes()");
  EXPECT_EQ(Content(doc, s[1]), "unclosed(");  // runs to the document's end
  EXPECT_TRUE(Find("<!-- <script>").empty());
  EXPECT_TRUE(Find("<script src='a.js'").empty());  // no end of the tag
}

}  // namespace
}  // namespace webprof
