#include "base/decimal.h"

#include <cmath>
#include <cstring>

namespace webprof {
namespace {

// An unsigned big integer of fixed capacity. The largest quantity below is
// about 2^1190 (a subnormal's 17 digits: 10^340 over 2^1074, times the
// round-trip check's 4f < 2^55), so 40 words of 32 bits always suffice.
// Invariant: words at and above n_ are zero.
class Big {
 public:
  static constexpr int kWords = 40;

  explicit Big(uint64_t v = 0) {
    w_[0] = static_cast<uint32_t>(v);
    w_[1] = static_cast<uint32_t>(v >> 32);
    n_ = w_[1] ? 2 : w_[0] ? 1 : 0;
  }

  void MulSmall(uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < n_; ++i) {
      uint64_t p = uint64_t{w_[i]} * m + carry;
      w_[i] = static_cast<uint32_t>(p);
      carry = p >> 32;
    }
    if (carry) w_[n_++] = static_cast<uint32_t>(carry);
    Trim();
  }
  void MulU64(uint64_t m) {
    Big hi = *this;
    hi.MulSmall(static_cast<uint32_t>(m >> 32));
    hi.ShiftLeft(32);
    MulSmall(static_cast<uint32_t>(m));
    Add(hi);
  }
  void MulPow10(int n) {
    static constexpr uint32_t kPow10[] = {
        1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    for (; n >= 9; n -= 9) MulSmall(1000000000u);
    if (n > 0) MulSmall(kPow10[n]);
  }
  void ShiftLeft(int bits) {
    if (n_ == 0) return;
    const int words = bits / 32, rest = bits % 32;
    if (rest) {
      uint32_t carry = 0;
      for (int i = 0; i < n_; ++i) {
        uint32_t w = w_[i];
        w_[i] = (w << rest) | carry;
        carry = w >> (32 - rest);
      }
      if (carry) w_[n_++] = carry;
    }
    if (words) {
      for (int i = n_ - 1; i >= 0; --i) w_[i + words] = w_[i];
      std::memset(w_, 0, sizeof(uint32_t) * words);
      n_ += words;
    }
  }
  void Add(const Big& b) {
    const int n = n_ > b.n_ ? n_ : b.n_;
    uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      uint64_t s = uint64_t{w_[i]} + b.w_[i] + carry;
      w_[i] = static_cast<uint32_t>(s);
      carry = s >> 32;
    }
    n_ = n;
    if (carry) w_[n_++] = 1;
  }
  // Requires *this >= b.
  void Sub(const Big& b) {
    int64_t borrow = 0;
    for (int i = 0; i < n_; ++i) {
      int64_t d = int64_t{w_[i]} - (i < b.n_ ? b.w_[i] : 0) - borrow;
      borrow = d < 0;
      w_[i] = static_cast<uint32_t>(d);
    }
    Trim();
  }
  int Compare(const Big& b) const {
    if (n_ != b.n_) return n_ < b.n_ ? -1 : 1;
    for (int i = n_ - 1; i >= 0; --i)
      if (w_[i] != b.w_[i]) return w_[i] < b.w_[i] ? -1 : 1;
    return 0;
  }

 private:
  void Trim() {
    while (n_ > 0 && w_[n_ - 1] == 0) --n_;
  }
  uint32_t w_[kWords] = {};
  int n_ = 0;
};

// A positive finite double as f·2^e (f < 2^53).
struct Binary {
  uint64_t f;
  int e;
};

Binary Decompose(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const int biased = static_cast<int>(bits >> 52) & 0x7ff;
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  if (biased == 0) return {fraction, -1074};
  return {fraction | (uint64_t{1} << 52), biased - 1075};
}

// r/s = v / 10^top, exactly.
void Scale(Binary b, int top, Big* r, Big* s) {
  *r = Big(b.f);
  *s = Big(1);
  if (b.e >= 0)
    r->ShiftLeft(b.e);
  else
    s->ShiftLeft(-b.e);
  if (top >= 0)
    s->MulPow10(top);
  else
    r->MulPow10(-top);
}

// floor(log10(v)).
int LeadingPosition(Binary b) {
  int bits = 0;
  for (uint64_t f = b.f; f; f >>= 1) ++bits;
  // 2^p <= v < 2^(p+1), so floor(p·log10 2) is the answer or one below it.
  const int p = b.e + bits - 1;
  const int k = static_cast<int>(std::floor(p * 0.30102999566398119521));
  Big r, s;
  Scale(b, k + 1, &r, &s);
  return r.Compare(s) >= 0 ? k + 1 : k;
}

// Appends v's digits at positions top..last (v < 10^(top+1)), truncated;
// leaves the rest, r/s in units of 10^last, in [0, 1).
void Generate(Binary b, int top, int last, std::string* digits, Big* r,
              Big* s) {
  Scale(b, top, r, s);
  for (int pos = top;; --pos) {
    char d = '0';
    while (r->Compare(*s) >= 0) {
      r->Sub(*s);
      ++d;
    }
    digits->push_back(d);
    if (pos == last) return;
    r->MulSmall(10);
  }
}

// Whether truncated digits with rest r/s round up: above half a unit, or
// exactly half and the last digit odd (printf's round half to even).
bool RoundsUp(const Big& r, const Big& s, char last_digit) {
  Big twice = r;
  twice.ShiftLeft(1);
  const int c = twice.Compare(s);
  return c > 0 || (c == 0 && ((last_digit - '0') & 1));
}

// Adds one unit in the last digit; a carry out of the first prepends a '1'.
void Increment(std::string* digits) {
  for (size_t i = digits->size(); i-- > 0;) {
    if ((*digits)[i] != '9') {
      ++(*digits)[i];
      return;
    }
    (*digits)[i] = '0';
  }
  digits->insert(digits->begin(), '1');
}

// Whether the rounded digits read back as v (strtod rounds to nearest, half
// to even). With the truncated digits D (an integer), v = (D + r/s)·10^last
// and the candidate is (D + up)·10^last; its distance to v, times s, is
// `err`. It reads back as v when that distance is below half the gap to the
// neighbouring double on its side, v/(2f) (v/(4f) below a power of two,
// where the gap underneath halves), or equal to it with f even.
bool RoundTrips(Binary b, uint64_t d, const Big& r, const Big& s, bool up) {
  Big err = r;
  if (up) {
    err = s;
    err.Sub(r);
  }
  Big value = s;  // (D + r/s)·s
  value.MulU64(d);
  value.Add(r);
  const bool below_power_of_two =
      !up && b.f == (uint64_t{1} << 52) && b.e > -1074;
  err.MulU64(b.f << (below_power_of_two ? 2 : 1));
  const int c = err.Compare(value);
  return c < 0 || (c == 0 && (b.f & 1) == 0);
}

}  // namespace

DecimalDigits ShortestDigits(double v) {
  const Binary b = Decompose(v);
  const int k = LeadingPosition(b);
  // Subnormals have fewer significant bits: their shortest form can be
  // shorter than a 15-digit rounding, so they search from one digit. (A
  // normal double that round-trips with fewer digits rounds to those
  // digits, zero-padded, at 15; 17 always round-trips.)
  const bool subnormal = b.f < (uint64_t{1} << 52);
  std::string digits;
  int point = k + 1;
  for (int precision = subnormal ? 1 : 15;; ++precision) {
    Big r, s;
    digits.clear();
    Generate(b, k, k - precision + 1, &digits, &r, &s);
    const bool up = RoundsUp(r, s, digits.back());
    uint64_t d = 0;
    for (char c : digits) d = d * 10 + static_cast<uint64_t>(c - '0');
    if (precision == 17 || RoundTrips(b, d, r, s, up)) {
      if (up) Increment(&digits);
      // A carry made one more digit ("999" -> "1000"): the point moves up.
      point += static_cast<int>(digits.size()) - precision;
      break;
    }
  }
  size_t n = digits.size();
  while (n > 1 && digits[n - 1] == '0') --n;
  DecimalDigits out;
  digits.copy(out.digits, n);
  out.count = static_cast<int>(n);
  out.point = point;
  return out;
}

void AppendFixed(double v, int width, int decimals, std::string* out) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const bool negative = bits >> 63;
  std::string text;
  if (std::isnan(v)) {
    text = negative ? "-nan" : "nan";
  } else if (std::isinf(v)) {
    text = negative ? "-inf" : "inf";
  } else {
    if (negative) text.push_back('-');
    std::string digits;  // the units digit and everything after it
    const double a = std::fabs(v);
    if (a == 0) {
      digits.assign(static_cast<size_t>(decimals) + 1, '0');
    } else {
      const Binary b = Decompose(a);
      const int lead = LeadingPosition(b);
      Big r, s;
      Generate(b, lead > 0 ? lead : 0, -decimals, &digits, &r, &s);
      if (RoundsUp(r, s, digits.back())) Increment(&digits);
    }
    const size_t whole = digits.size() - static_cast<size_t>(decimals);
    text.append(digits, 0, whole);
    if (decimals > 0) text.append(1, '.').append(digits, whole);
  }
  if (static_cast<int>(text.size()) < width)
    out->append(static_cast<size_t>(width) - text.size(), ' ');
  out->append(text);
}

char* FormatUnsigned(char* out, uint64_t v) {
  char tmp[20];
  char* t = tmp + sizeof tmp;
  do {
    *--t = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  const size_t n = static_cast<size_t>(tmp + sizeof tmp - t);
  std::memcpy(out, t, n);
  return out + n;
}

void AppendUnsigned(uint64_t v, std::string* out) {
  char buf[20];
  out->append(buf, FormatUnsigned(buf, v));
}

}  // namespace webprof
