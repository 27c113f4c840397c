// Test helpers shared by the importer tests (tests/core/import/): a fixture's
// text, a stack as its frame names, the result of an import into a fresh
// session, and the round-trip comparison of two traces sample by sample.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "base/status.h"
#include "trace/session.h"

namespace webprof::testing {

// The text of tests/fixtures/<rel>; empty when the file is missing, which a
// test asserts against (a fixture must not vanish into a passing test).
inline std::string ReadFixture(const std::string& rel) {
  std::ifstream in(std::string(WEBPROF_FIXTURES_DIR) + "/" + rel,
                   std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Frame names of a stack, outermost first, '/'-joined ("" for none).
inline std::string StackPath(const ProfilerTrace& t, StackId s) {
  std::string out;
  for (; !s.is_none(); s = t.stacks().Get(s).parent)
    out = std::string(t.frame_name(t.stacks().Get(s).frame)) +
          (out.empty() ? "" : "/") + out;
  return out;
}

// What an importer that fills one session gives back; `Info` is its report.
template <class Info>
struct SessionImport {
  Status status = Status::kOk;
  Session session{SessionOptions{1, 1000000, 0}};
  Info info;
  std::string error;
};

// An export re-imported: as many samples, each on the same frame path.
inline void ExpectSameSamplePaths(const ProfilerTrace& a,
                                  const ProfilerTrace& b) {
  ASSERT_EQ(a.samples().size(), b.samples().size());
  for (size_t i = 0; i < a.samples().size(); ++i)
    EXPECT_EQ(StackPath(a, a.samples()[i].stack),
              StackPath(b, b.samples()[i].stack))
        << "sample " << i;
}

}  // namespace webprof::testing
