// Frame positions and definitions as records (how the page's core and the
// tools module ask and answer each frame's definition): what is encoded
// decodes to the same, and decoders refuse words that are not such records.
#include "source/frame_definitions.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace webprof {
namespace {

class FrameDefinitionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(scan_.ScanScript("function tok(s) {if(--__wp$f[0]<0)__wp$s();\n"
                               "  return s;\n"
                               "}\n"
                               "const é = () => tok(1);\n",
                               ScanLimits()),
              Status::kOk);
    ResourceId app = trace_.InternResource("https://x.test/app.js");
    ResourceId lib = trace_.InternResource("https://x.test/lib.js");
    trace_.InternFrame(RawFrame{"tok", trace_.resource_url(app), 2, 3});
    trace_.InternFrame(RawFrame{"tok", trace_.resource_url(app), 1, 35});
    trace_.InternFrame(RawFrame{"", trace_.resource_url(app), 4, 17});
    trace_.InternFrame(RawFrame{"", trace_.resource_url(app), 4, 1});
    trace_.InternFrame(RawFrame{"x", trace_.resource_url(lib), 9, 9});
    trace_.InternFrame(RawFrame{"push", "", 0, 0});  // a builtin
  }
  // The trace's positions as the tools module reads them.
  FramePositions Positions() {
    std::vector<uint32_t> words;
    EncodeFramePositions(trace_, &words);
    FramePositions p;
    EXPECT_EQ(p.Decode(words.data(), words.size()), Status::kOk);
    return p;
  }
  SourceScan scan_;
  ProfilerTrace trace_;
};

TEST_F(FrameDefinitionsTest, PositionsAreTheTracesFrames) {
  const FramePositions p = Positions();
  EXPECT_EQ(p.urls, (std::vector<std::string>{"https://x.test/app.js",
                                              "https://x.test/lib.js"}));
  ASSERT_EQ(p.frames.size(), trace_.frames().size());
  for (size_t i = 0; i < p.frames.size(); ++i) {
    const Frame& f = trace_.frames().rows()[i];
    EXPECT_EQ(p.frames[i].resource, f.resource.is_none()
                                        ? FramePositions::kNoResource
                                        : f.resource.value);
    EXPECT_EQ(p.frames[i].line, f.line);
    EXPECT_EQ(p.frames[i].column, f.column);
  }
  EXPECT_EQ(p.frames[5].resource, FramePositions::kNoResource) << "builtin";
}

TEST_F(FrameDefinitionsTest, DefinitionsRoundTripWithTheirKinds) {
  FrameDefinitions there, here;
  there.Define({&scan_}, Positions());  // lib.js not scanned
  std::vector<uint32_t> words;
  there.Encode(&words);
  ASSERT_EQ(here.Decode(words.data(), words.size(), 6), Status::kOk);
  Definition d;
  ASSERT_TRUE(here.Of(0, &d));
  EXPECT_EQ(d.name, "tok");
  EXPECT_EQ(d.line, 1u);
  EXPECT_EQ(d.column, 13u);
  EXPECT_FALSE(d.entry);
  EXPECT_FALSE(d.top_level);
  ASSERT_TRUE(here.Of(1, &d));
  EXPECT_TRUE(d.entry) << "a stack captured at tok's entry check";
  ASSERT_TRUE(here.Of(2, &d));
  EXPECT_EQ(d.name, "é") << "names are UTF-8 slices";
  EXPECT_EQ(d.line, 4u);
  ASSERT_TRUE(here.Of(3, &d));
  EXPECT_TRUE(d.top_level);
  EXPECT_EQ(d.name, "");
  EXPECT_EQ(d.line, 1u);
  EXPECT_EQ(d.column, 1u);
  EXPECT_FALSE(here.Of(4, &d)) << "an unscanned script";
  EXPECT_FALSE(here.Of(5, &d)) << "a builtin";
  EXPECT_FALSE(here.Of(6, &d)) << "past the last frame";
}

TEST_F(FrameDefinitionsTest, DecodersRefuseWhatIsNotTheirRecords) {
  std::vector<uint32_t> positions;
  EncodeFramePositions(trace_, &positions);
  FrameDefinitions defs;
  defs.Define({&scan_}, Positions());
  std::vector<uint32_t> definitions;
  defs.Encode(&definitions);
  auto positions_ok = [](std::vector<uint32_t> w) {
    FramePositions p;
    return p.Decode(w.data(), w.size()) == Status::kOk;
  };
  auto definitions_ok = [](std::vector<uint32_t> w, uint32_t frames = 6) {
    FrameDefinitions d;
    return d.Decode(w.data(), w.size(), frames) == Status::kOk;
  };
  ASSERT_TRUE(positions_ok(positions));
  ASSERT_TRUE(definitions_ok(definitions));
  EXPECT_FALSE(positions_ok({}));
  EXPECT_FALSE(definitions_ok({}));
  EXPECT_FALSE(definitions_ok(definitions, 5)) << "another trace's";
  for (auto* w : {&positions, &definitions}) {
    std::vector<uint32_t> bad = *w;
    bad[0] = 99;  // version
    EXPECT_FALSE(w == &positions ? positions_ok(bad) : definitions_ok(bad));
    bad = *w;
    bad.pop_back();  // truncated
    EXPECT_FALSE(w == &positions ? positions_ok(bad) : definitions_ok(bad));
    bad = *w;
    bad.push_back(0);  // trailing
    EXPECT_FALSE(w == &positions ? positions_ok(bad) : definitions_ok(bad));
    bad = *w;
    bad[1] = 0xFFFFFFFFu;  // a count past the words
    EXPECT_FALSE(w == &positions ? positions_ok(bad) : definitions_ok(bad));
  }
  // Positions: a URL slice past the bytes; a frame of a resource not listed.
  std::vector<uint32_t> bad = positions;
  bad[4 + 1] = 1000;  // the first URL's length
  EXPECT_FALSE(positions_ok(bad));
  bad = positions;
  bad[4 + 2 * 2] = 7;  // the first frame's resource
  EXPECT_FALSE(positions_ok(bad));
  // Definitions: a name slice past the bytes; flags it does not know.
  bad = definitions;
  bad[3 + 2] = 1000;  // the first frame's name length
  EXPECT_FALSE(definitions_ok(bad));
  bad = definitions;
  bad[3] = 8;  // the first frame's flags
  EXPECT_FALSE(definitions_ok(bad));
  // Refused: what was taken before stays.
  FrameDefinitions kept;
  ASSERT_EQ(kept.Decode(definitions.data(), definitions.size(), 6),
            Status::kOk);
  EXPECT_NE(kept.Decode(bad.data(), bad.size(), 6), Status::kOk);
  Definition d;
  EXPECT_TRUE(kept.Of(0, &d));
}

}  // namespace
}  // namespace webprof
