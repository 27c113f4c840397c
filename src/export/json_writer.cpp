#include "export/json_writer.h"

#include <cassert>
#include <cmath>
#include <cstdlib>

#include "base/decimal.h"
#include "base/utf8.h"
#include "export/json_check.h"

namespace webprof {
namespace {

// 1 = must be escaped: the control characters, '"' and '\'.
struct EscapeTable {
  uint8_t needs[256] = {};
  constexpr EscapeTable() {
    for (int c = 0; c < 0x20; ++c) needs[c] = 1;
    needs[static_cast<int>('"')] = 1;
    needs[static_cast<int>('\\')] = 1;
  }
};
constexpr EscapeTable kEscape;

// Printable ASCII other than '"' and '\\': such a string is valid UTF-8 and
// needs no escape, so it is copied as-is. Keys, function names and URLs
// almost always are, and one check replaces validation plus escaping.
bool IsPlainAscii(std::string_view s) {
  bool plain = true;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    plain &= c < 0x80 && !kEscape.needs[c];
  }
  return plain;
}

template <typename Out>
void EscapeValid(std::string_view s, Out&& out) {
  static const char kHex[] = "0123456789abcdef";
  const char* p = s.data();
  const char* end = p + s.size();
  const char* run = p;
  for (; p < end; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if (!kEscape.needs[c]) continue;
    out(run, static_cast<size_t>(p - run));
    char esc[6] = {'\\', 0, 0, 0, 0, 0};
    size_t n = 2;
    switch (c) {
      case '"':
        esc[1] = '"';
        break;
      case '\\':
        esc[1] = '\\';
        break;
      case '\n':
        esc[1] = 'n';
        break;
      case '\r':
        esc[1] = 'r';
        break;
      case '\t':
        esc[1] = 't';
        break;
      case '\b':
        esc[1] = 'b';
        break;
      case '\f':
        esc[1] = 'f';
        break;
      default:
        esc[1] = 'u';
        esc[2] = '0';
        esc[3] = '0';
        esc[4] = kHex[c >> 4];
        esc[5] = kHex[c & 15];
        n = 6;
    }
    out(esc, n);
    run = p + 1;
  }
  out(run, static_cast<size_t>(end - run));
}

}  // namespace

const char JsonWriter::kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536"
    "37383940414243444546474849505152535455565758596061626364656667686970717273"
    "7475767778798081828384858687888990919293949596979899";

IntTextCache::Entry IntTextCache::Format(uint32_t v) {
  char digits[JsonWriter::kMaxIntChars + 1];
  size_t n = static_cast<size_t>(JsonWriter::FormatInt(digits, v) - digits);
  assert(n < sizeof(Entry::text) + 1 && n > 0);
  Entry e{};
  std::memcpy(e.text, digits, n);
  e.size = static_cast<uint8_t>(n);
  return e;
}

void JsonWriter::Open(char c) {
  Separate();
  sink_->Put(static_cast<uint8_t>(c));
  assert(depth_ < kMaxDepth);
  first_[++depth_] = true;
}

void JsonWriter::Close(char c) {
  assert(depth_ > 0 && !after_key_);
  --depth_;
  sink_->Put(static_cast<uint8_t>(c));
}

void JsonWriter::Key(std::string_view key) {
  Separate();
  WriteString(key);
  sink_->Put(':');
  after_key_ = true;
}

void JsonWriter::WriteString(std::string_view raw) {
  if (IsPlainAscii(raw)) {
    if (uint8_t* p = sink_->WritePtr(raw.size() + 2)) {
      p[0] = '"';
      if (!raw.empty()) std::memcpy(p + 1, raw.data(), raw.size());
      p[raw.size() + 1] = '"';
      sink_->Advance(raw.size() + 2);
      return;
    }
  }
  std::string scratch;  // only touched for invalid UTF-8 (rare)
  std::string_view s = NormalizeUtf8(raw, &scratch);
  sink_->Put('"');
  EscapeValid(s, [this](const char* p, size_t n) {
    if (n) sink_->Append(p, n);
  });
  sink_->Put('"');
}

void JsonWriter::AppendQuoted(std::string_view raw, std::string* out) {
  std::string scratch;
  std::string_view s = NormalizeUtf8(raw, &scratch);
  out->push_back('"');
  EscapeValid(s, [out](const char* p, size_t n) { out->append(p, n); });
  out->push_back('"');
}

void JsonWriter::WriteInt(int64_t v) {
  char buf[kMaxIntChars + 1];
  char* end = FormatInt(buf, v);
  sink_->Append(buf, static_cast<size_t>(end - buf));
}

void JsonWriter::WriteDouble(double v) {
  if (!std::isfinite(v)) {
    sink_->Append("null");  // JSON has no NaN/Infinity
    return;
  }
  // Integral values in the exact-integer range print as integers (the common
  // case for µs timestamps), everything else in shortest round-trip form.
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    if (v == 0) v = 0;  // -0 -> 0
    WriteInt(static_cast<int64_t>(v));
    return;
  }
  // Shortest of 15/16/17 significant digits that parses back to v
  // (base/decimal.h; snprintf and strtod did this, at a large size in Wasm).
  // Laid out as ECMAScript's Number::toString does, so a number the core
  // writes reads exactly like JSON.stringify's: digits d1..dk, decimal
  // exponent n (value = 0.d1..dk x 10^n); plain up to 21 integer digits and
  // down to 6 leading zeros, else d1.d2..dk e±(n-1).
  std::string out;
  if (v < 0) {
    out.push_back('-');
    v = -v;
  }
  const DecimalDigits shortest = ShortestDigits(v);
  const char* digits = shortest.digits;
  const int k = shortest.count;
  const int n = shortest.point;
  if (k <= n && n <= 21) {
    out.append(digits, k).append(n - k, '0');
  } else if (0 < n && n <= 21) {
    out.append(digits, n).append(1, '.').append(digits + n, k - n);
  } else if (-6 < n && n <= 0) {
    out.append("0.").append(-n, '0').append(digits, k);
  } else {
    out.push_back(digits[0]);
    if (k > 1) out.append(1, '.').append(digits + 1, k - 1);
    out.append(n - 1 >= 0 ? "e+" : "e-")
        .append(std::to_string(std::abs(n - 1)));
  }
  sink_->Append(out);
}

bool JsonWriter::Raw(std::string_view json) {
  if (!IsValidJsonValue(json)) {
    String(json);
    return false;
  }
  Separate();
  sink_->Append(json);
  return true;
}

}  // namespace webprof
