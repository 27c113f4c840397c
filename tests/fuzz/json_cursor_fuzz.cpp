// The core's one JSON reader (base/json_cursor.h: the Gecko importer's and
// the source-map decoder's) on any bytes: reading every value with the typed
// calls (strings both as views and decoded, numbers also as Int where they
// are integers, re-read after a Seek) accepts nothing Skip() refuses, agrees
// with itself value by value, refuses nothing Skip() accepts but numbers out
// of range, and a refusal always says why.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/json_cursor.h"

using namespace webprof;

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

// One scalar, or a container's opening (pushed on `open`: true = object).
bool Value(JsonCursor& c, std::string_view text, std::vector<bool>* open) {
  switch (c.Peek()) {
    case JsonCursor::Type::kNull:
      return c.Null();
    case JsonCursor::Type::kBool: {
      bool b;
      return c.Bool(&b);
    }
    case JsonCursor::Type::kNumber: {
      size_t at = c.Offset();
      double d;
      if (!c.Number(&d)) return false;
      Check(std::isfinite(d));
      size_t end = c.Offset();
      // An integer literal (no fraction, no exponent: 4E-4444 reads as 0
      // but is no integer) within 2^53 reads the same through Int.
      std::string_view lit = text.substr(at, end - at);
      if (lit.find_first_of(".eE") == std::string_view::npos &&
          std::fabs(d) <= 9007199254740992.0) {
        c.Seek(at);
        int64_t i;
        Check(c.Int(&i) && double(i) == d && c.Offset() == end);
      }
      return true;
    }
    case JsonCursor::Type::kString: {
      size_t at = c.Offset();
      std::string_view view;
      std::string scratch, decoded;
      if (!c.String(&view, &scratch)) return false;
      size_t end = c.Offset();
      c.Seek(at);
      Check(c.String(&decoded) && decoded == view && c.Offset() == end);
      return true;
    }
    case JsonCursor::Type::kArray:
      open->push_back(false);
      return c.BeginArray();
    case JsonCursor::Type::kObject:
      open->push_back(true);
      return c.BeginObject();
    case JsonCursor::Type::kBad:
      return c.Fail("a value");
  }
  return false;
}

bool Walk(JsonCursor& c, std::string_view text) {
  std::vector<bool> open;
  std::string key;
  if (!Value(c, text, &open)) return false;
  while (!open.empty()) {
    bool more = open.back() ? c.NextKey(&key) : c.NextElement();
    if (!c.ok()) return false;
    if (!more) {
      open.pop_back();
      continue;
    }
    if (!Value(c, text, &open)) return false;
  }
  return c.AtEnd();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  JsonCursor walked(in);
  bool read = Walk(walked, in);
  JsonCursor skipped(in);
  bool skip = skipped.Skip() && skipped.AtEnd();
  // Skip() may accept what a typed read refuses (a number past the double
  // range is still a JSON number), never the other way round.
  Check(!read || skip);
  // And Skip() (a byte walk of its own) validates every token as the typed
  // reads do: it accepts more only where a number is out of a double's range.
  Check(!skip || read ||
        walked.error().find("a finite number") != std::string::npos ||
        walked.error().find("a shorter number") != std::string::npos);
  Check(read == walked.ok() && skip == skipped.ok());
  Check(read || !walked.error().empty());
  Check(skip || !skipped.error().empty());
  return 0;
}
