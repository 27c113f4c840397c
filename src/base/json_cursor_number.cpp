// JsonCursor's numbers: one scan per number. The grammar is checked and the
// digits are accumulated in the same pass (a profile is mostly numbers: a
// W3C trace's timestamps, a .cpuprofile's ids and deltas); the value then
// comes from Clinger's fast path when that is exact, else from strtod in
// the C locale (a double) or the exact decimal path (an integer). No number
// is ever rounded twice or read with fewer digits than it has.
#include <locale.h>
#include <stdlib.h>
#if defined(__APPLE__)
#include <xlocale.h>
#endif

#include <algorithm>
#include <cmath>
#include <string>

#include "base/json_cursor.h"

namespace webprof {
namespace {

constexpr uint64_t kTwo53 = uint64_t{1} << 53;

// strtod's decimal point is the process's LC_NUMERIC one: in a program that
// set a comma locale it read "1.5e-30" as 1 (tests/core/base/
// json_cursor_locale_test.cpp). strtod_l in a C locale made once is
// locale-free. (std::from_chars would be, too, but Emscripten 3.1.6's
// libc++ has only its integer overloads.)
double StrtodC(const char* text) {
#if defined(_WIN32)
  static const _locale_t c = _create_locale(LC_NUMERIC, "C");
  return _strtod_l(text, nullptr, c);
#else
  static const locale_t c = newlocale(LC_NUMERIC_MASK, "C", locale_t{});
  return strtod_l(text, nullptr, c);
#endif
}

// Clinger's fast path: a mantissa of at most 2^53 and a power of ten up to
// 1e22 are both exact doubles, so one multiplication or division rounds
// correctly — strtod's value without strtod. False: not provably exact.
bool FastDouble(const JsonNumberParts& n, double* out) {
  static constexpr double kPow10[] = {
      1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (n.inexact) return false;
  double v;
  if (n.mantissa == 0) {
    v = 0;  // zero with any exponent (the sign is kept: -0 is -0)
  } else {
    if (n.mantissa > kTwo53 || n.scale < -22 || n.scale > 22) return false;
    v = static_cast<double>(n.mantissa);
    v = n.scale < 0 ? v / kPow10[-n.scale] : v * kPow10[n.scale];
  }
  *out = n.negative ? -v : v;
  return true;
}

}  // namespace

bool JsonCursor::ScanNumber(std::string_view* text, JsonNumberParts* parts) {
  if (Peek() != Type::kNumber) return Fail("a number");
  return ScanNumberHere(text, parts);
}

bool JsonCursor::ScanNumberHere(std::string_view* text,
                                JsonNumberParts* parts) {
  const char* p = text_.data();
  const size_t n = text_.size(), start = pos_;
  size_t i = pos_;
  JsonNumberParts r;
  r.negative = p[i] == '-';
  if (r.negative) ++i;
  // Every digit goes into the mantissa (leading zeros add nothing); past 19
  // digits it may have wrapped, and `inexact` sends the value to the text.
  uint64_t m = 0;
  const size_t int_start = i;
  while (i < n && IsDigit(p[i])) m = m * 10 + unsigned(p[i++] - '0');
  size_t count = i - int_start;
  if (count == 0) {
    pos_ = i;
    return Fail("a digit");
  }
  if (p[int_start] == '0' && count > 1) {
    pos_ = int_start;
    return Fail("no leading zero");
  }
  if (i < n && p[i] == '.') {
    const size_t from = ++i;
    while (i < n && IsDigit(p[i])) m = m * 10 + unsigned(p[i++] - '0');
    if (i == from) {
      pos_ = i;
      return Fail("a digit after '.'");
    }
    count += i - from;
    r.scale = -static_cast<int64_t>(i - from);
    r.plain = false;
  }
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    ++i;
    r.plain = false;
    const bool down = i < n && p[i] == '-';
    if (i < n && (p[i] == '+' || p[i] == '-')) ++i;
    const size_t from = i;
    int64_t e = 0;
    for (; i < n && IsDigit(p[i]); ++i)
      e = std::min<int64_t>(e * 10 + (p[i] - '0'), 1000000);
    if (i == from) {
      pos_ = i;
      return Fail("an exponent");
    }
    r.scale += down ? -e : e;
  }
  r.mantissa = m;
  r.inexact = count > 19;
  pos_ = i;
  *text = text_.substr(start, i - start);
  *parts = r;
  return true;
}

bool JsonCursor::SlowNumber(double* out) {
  std::string_view text;
  JsonNumberParts parts;
  if (!ScanNumber(&text, &parts)) return false;
  double v;
  if (!FastDouble(parts, &v)) {
    // strtod needs a terminated copy; JSON puts no bound on a number's
    // length, so a long one (80 digits of a printed double) goes to the heap.
    char buf[64];
    std::string long_text;
    const char* c_text = buf;
    if (text.size() < sizeof(buf)) {
      text.copy(buf, text.size());
      buf[text.size()] = 0;
    } else {
      long_text.assign(text);
      c_text = long_text.c_str();
    }
    v = StrtodC(c_text);
    if (!std::isfinite(v)) return Fail("a finite number");
  }
  if (out) *out = v;
  return true;
}

bool JsonCursor::SlowInt(int64_t* out) {
  // Exact, from the text (no strtod: the page's core reads only integers,
  // and strtod is large in Wasm): significant digits times a power of ten.
  std::string_view text;
  JsonNumberParts parts;
  if (!ScanNumber(&text, &parts)) return false;
  if (parts.plain && !parts.inexact && parts.mantissa <= kTwo53) {
    const int64_t v = static_cast<int64_t>(parts.mantissa);  // the common case
    *out = parts.negative ? -v : v;
    return true;
  }
  std::string sig;
  int exp10 = 0;
  const bool negative = parts.negative;
  size_t i = negative ? 1 : 0;
  bool fraction = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      fraction = true;
    } else {
      if (fraction) --exp10;
      if (!sig.empty() || text[i] != '0') sig.push_back(text[i]);
    }
  }
  if (i < text.size()) {
    const bool down = text[i + 1] == '-';
    int64_t e = 0;
    for (i += (text[i + 1] == '-' || text[i + 1] == '+') ? 2 : 1;
         i < text.size(); ++i)
      e = std::min<int64_t>(e * 10 + (text[i] - '0'), 100000);
    exp10 += static_cast<int>(down ? -e : e);
  }
  while (!sig.empty() && sig.back() == '0') {
    sig.pop_back();
    ++exp10;
  }
  uint64_t v = 0;
  if (!sig.empty()) {
    if (exp10 < 0 || static_cast<int64_t>(sig.size()) + exp10 > 16)
      return Fail("an integer of at most 2^53");
    for (char c : sig) v = v * 10 + static_cast<uint64_t>(c - '0');
    for (int k = 0; k < exp10; ++k) v *= 10;
    if (v > kTwo53) return Fail("an integer of at most 2^53");
  }
  *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

bool JsonCursor::IntArray(std::vector<int64_t>* out) {
  if (!BeginArray()) return false;
  const char* p = text_.data();
  const size_t n = text_.size();
  size_t i = pos_;
  // Elements go through a small buffer and are appended to `out` a block
  // at a time: push_back's bookkeeping per element was most of this loop's
  // time in Wasm. 32 elements (256 bytes): Emscripten's memcpy hands copies
  // of 512 bytes or more to JS, a call out of Wasm per block.
  int64_t block[32];
  size_t k = 0;
  auto done = [&](bool ok) {
    out->insert(out->end(), block, block + k);
    return ok;
  };
  auto space = [&] {
    while (i < n &&
           (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
      ++i;
  };
  auto close = [&] {
    pos_ = i + 1;
    --depth_;
    return done(true);
  };
  space();
  if (i < n && p[i] == ']') return close();
  constexpr size_t kBlock = sizeof block / sizeof block[0];
  // Where the scans' room ends: past it only the paths below read.
  const size_t room_end =
      n >= json_scan::kScanRoom ? n - json_scan::kScanRoom : 0;
  for (;;) {
    if (k == kBlock) {
      out->insert(out->end(), block, block + k);
      k = 0;
    }
    // V8's samples and deltas: runs of 1-7 digit non-negative integers,
    // each right before its ',' — one word load per element, no sign, no
    // 16-digit run; the first element of any other form (the last one, a
    // sign, spaces, a long run, an error) leaves for the paths below. The
    // loop runs until the block is full (a bound on bytes instead, at 2 per
    // element, sent most elements of 4-digit arrays to the paths below).
    while (k < kBlock && i < room_end) {
      const char* q = p + i;
      const uint64_t w = json_scan::Load8(q);
      const uint64_t x = w - json_scan::kOnes * '0';
      const uint64_t bad =
          (x | (w + json_scan::kOnes * 0x46)) & json_scan::kHighs;
      if (bad == 0) break;
      const unsigned digits = json_scan::FirstByte(bad);
      // The first byte's digit value (10 or more: no digit): 1-9 leads a
      // number, 0 only a lone zero.
      const unsigned first = static_cast<unsigned>(x & 0xFF);
      if (q[digits] != ',' || (first - 1 >= 9 && (first != 0 || digits != 1)))
        break;
      block[k++] = static_cast<int64_t>(json_scan::DigitsValue(x, digits));
      i += digits + 1;
    }
    if (k == kBlock) continue;
    if (n - i >= json_scan::kScanRoom) {
      // The common element: a plain integer right before its ',' or ']'.
      const char* q = p + i;
      const bool negative = *q == '-';
      q += negative;
      uint64_t v;
      const unsigned digits = json_scan::Digits16(q, &v);
      const char next = q[digits];
      if (digits && digits <= 15 && (*q != '0' || digits == 1) &&
          (next == ',' || next == ']')) {
        block[k++] =
            negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
        i = static_cast<size_t>(q - p) + digits;
        if (next == ']') return close();
        ++i;
        continue;
      }
    }
    space();
    const size_t at = i;
    const bool negative = i < n && p[i] == '-';
    if (negative) ++i;
    const size_t digits = i;
    int64_t v = 0;
    while (i < n && IsDigit(p[i]) && i - digits < 15)
      v = v * 10 + (p[i++] - '0');
    // Plain: 1 to 15 digits, no leading zero, nothing numeric after them.
    const bool plain = i > digits && (p[digits] != '0' || i - digits == 1) &&
                       (i >= n || (p[i] != '.' && p[i] != 'e' && p[i] != 'E' &&
                                   !IsDigit(p[i])));
    if (plain) {
      block[k++] = negative ? -v : v;
    } else {  // the general path (it also says what is wrong)
      pos_ = at;
      if (!SlowInt(&v)) return done(false);
      block[k++] = v;
      i = pos_;
    }
    space();
    if (i < n && p[i] == ',') {
      ++i;
      continue;
    }
    if (i < n && p[i] == ']') return close();
    pos_ = i;
    return done(Fail("',' or ']'"));
  }
}

}  // namespace webprof
