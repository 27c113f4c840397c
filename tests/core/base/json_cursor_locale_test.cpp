// JSON numbers do not depend on the C locale: a program that embeds the core
// and calls setlocale(LC_NUMERIC, "de_DE.UTF-8") — a comma as the decimal
// point — still reads "1.5" as 1.5, on the fast path and on the slow one
// (more than 19 digits, far exponents: where the cursor asks libc).
//
// The comma locale: an installed one (de_DE, fr_FR, …), else one generated
// here with glibc's localedef from a four-line LC_NUMERIC source into the
// test's temporary directory (LOCPATH); without either the test is skipped
// and says so.
#include <gtest/gtest.h>

#include <clocale>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "base/json_cursor.h"

namespace webprof {
namespace {

// Switches LC_NUMERIC to a comma locale for its lifetime; ok() says whether
// it found one.
class CommaLocale {
 public:
  CommaLocale() {
    const char* was = std::setlocale(LC_NUMERIC, nullptr);
    was_ = was ? was : "C";
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                             "fr_FR.utf8", "de_DE", "fr_FR"})
      if (Use(name)) return;
    if (Generate()) Use("webprof_comma");
  }
  ~CommaLocale() {
    std::setlocale(LC_NUMERIC, was_.c_str());
    if (!locpath_.empty()) unsetenv("LOCPATH");
  }
  bool ok() const { return ok_; }

 private:
  bool Use(const char* name) {
    ok_ = std::setlocale(LC_NUMERIC, name) != nullptr &&
          std::strcmp(std::localeconv()->decimal_point, ",") == 0;
    return ok_;
  }
  bool Generate() {
    const std::string dir = ::testing::TempDir() + "webprof_locales";
    const std::string source = dir + "/comma.src";
    if (std::system(("mkdir -p '" + dir + "'").c_str()) != 0) return false;
    std::ofstream(source) << "LC_NUMERIC\ndecimal_point \"<U002C>\"\n"
                             "thousands_sep \"<U002E>\"\ngrouping 3;3\n"
                             "END LC_NUMERIC\n";
    const std::string cmd = "localedef -c -i '" + source +
                            "' -f ANSI_X3.4-1968 '" + dir +
                            "/webprof_comma' >/dev/null 2>&1";
    // localedef exits 1 for the categories the source leaves out (-c
    // writes the locale anyway): setlocale below decides.
    if (std::system(cmd.c_str()) == -1) return false;
    locpath_ = dir;
    return setenv("LOCPATH", dir.c_str(), 1) == 0;
  }

  std::string was_;
  std::string locpath_;
  bool ok_ = false;
};

double Read(const char* text) {
  JsonCursor c(text);
  double v = -1;
  EXPECT_TRUE(c.Number(&v) && c.AtEnd()) << text << ": " << c.error();
  return v;
}

TEST(JsonCursorLocale, ACommaDecimalLocaleChangesNoNumber) {
  // Expected values as read in the C locale (the process's default).
  const char* texts[] = {
      "1.5", "1.5e-30", "-2.25E+300", "1.50000000000000000000000001",
      "0.1000000000000000055511151231257827021181583404541015625000001"};
  double expected[std::size(texts)];
  for (size_t i = 0; i < std::size(texts); ++i) expected[i] = Read(texts[i]);
  EXPECT_EQ(expected[0], 1.5);
  EXPECT_EQ(expected[1], 1.5e-30);

  CommaLocale comma;
  if (!comma.ok())
    GTEST_SKIP() << "no comma-decimal locale: none installed (Debian: "
                    "`locales`, de_DE.UTF-8) and glibc's localedef could not "
                    "make one";
  ASSERT_EQ(std::strtod("1.5e-30", nullptr), 1.0)
      << "the locale is not in effect: this test would prove nothing";
  for (size_t i = 0; i < std::size(texts); ++i)
    EXPECT_EQ(Read(texts[i]), expected[i]) << texts[i];
}

}  // namespace
}  // namespace webprof
