#include "sampling/stack_parser.h"

namespace webprof {
namespace {

using sv = std::string_view;

// Byte loops rather than memcmp: the prefixes are a few bytes long and a
// libc call per check dominated the parse profile.
inline bool StartsWith(sv s, sv p) {
  if (s.size() < p.size()) return false;
  for (size_t i = 0; i < p.size(); ++i)
    if (s[i] != p[i]) return false;
  return true;
}
inline bool EndsWith(sv s, sv p) {
  if (s.size() < p.size()) return false;
  size_t off = s.size() - p.size();
  for (size_t i = 0; i < p.size(); ++i)
    if (s[off + i] != p[i]) return false;
  return true;
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

sv TrimLeft(sv s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}
sv TrimRight(sv s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' '))
    s.remove_suffix(1);
  return s;
}

// Decimal digits -> uint32; false on empty input, a non-digit or overflow.
bool ParseU32(sv s, uint32_t* out) {
  if (s.empty() || s.size() > 10) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > 0xFFFFFFFFull) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

// Splits a trailing ":digits" off `*s` into `*n`; false (nothing changed)
// when `*s` does not end that way.
bool SplitTrailingNumber(sv* s, uint32_t* n) {
  size_t colon = s->rfind(':');
  if (colon == sv::npos) return false;
  if (!ParseU32(s->substr(colon + 1), n)) return false;
  *s = s->substr(0, colon);
  return true;
}

// "url:line:col", "url:line" or "url" -> parts. Scheme and port colons stay in
// the url because only trailing all-digit groups are taken, right to left.
void SplitPosition(sv loc, sv* url, uint32_t* line, uint32_t* column) {
  uint32_t a = 0, b = 0;
  sv rest = loc;
  if (SplitTrailingNumber(&rest, &b)) {
    sv rest2 = rest;
    if (SplitTrailingNumber(&rest2, &a) && !rest2.empty()) {
      *url = rest2;
      *line = a;
      *column = a == 0 ? 0 : b;  // 1-based: no line means no position
      return;
    }
    // "url:<too many digits>:2" is not "url:<digits>" at line 2.
    size_t colon = rest.rfind(':');
    bool digits_overflow = colon != sv::npos && colon + 1 < rest.size();
    for (size_t i = colon + 1; digits_overflow && i < rest.size(); ++i)
      digits_overflow = IsDigit(rest[i]);
    if (!rest.empty() && !digits_overflow) {
      *url = rest;
      *line = b;
      *column = 0;
      return;
    }
  }
  *url = loc;
  *line = 0;
  *column = 0;
}

// "...:wasm-function[3]:0x29" -> url (before the marker), column = offset+1.
bool ParseWasmLocation(sv loc, ParsedFrame* f) {
  constexpr sv kMarker = ":wasm-function[";
  // URLs rarely hold '[': a memchr rejects the common case cheaply.
  size_t bracket = loc.find('[');
  if (bracket == sv::npos || bracket + 1 < kMarker.size()) return false;
  size_t m = bracket + 1 - kMarker.size();
  if (!StartsWith(loc.substr(m), kMarker)) return false;
  f->is_wasm = true;
  f->url = loc.substr(0, m);
  size_t hex = loc.find(":0x", m);
  if (hex != sv::npos) {
    uint64_t off = 0;
    sv digits = loc.substr(hex + 3);
    bool ok = !digits.empty() && digits.size() <= 8;
    for (char c : digits) {
      int d = IsDigit(c)               ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) ok = false;
      off = off * 16 + static_cast<uint64_t>(d < 0 ? 0 : d);
    }
    if (ok && off + 1 <= 0xFFFFFFFFull)
      f->column = static_cast<uint32_t>(off + 1);
  }
  return true;
}

// SpiderMonkey/JSC eval: "url line 36 > eval:1:1", nested
// "url line 1 > eval line 2 > Function:3:4". The script is the first url.
bool ParseAtSignEvalLocation(sv loc, ParsedFrame* f) {
  size_t p = loc.find(" line ");
  if (p == sv::npos) return false;
  size_t gt = loc.find(" > ", p);
  if (gt == sv::npos) return false;
  uint32_t ignored;
  if (!ParseU32(loc.substr(p + 6, gt - (p + 6)), &ignored)) return false;
  f->script_url = loc.substr(0, p);
  sv tail = loc.substr(loc.rfind(" > ") + 3);  // "eval:1:1", "Function:3:8"
  if (ParseWasmLocation(tail, f)) {
    f->url = sv();  // SpiderMonkey names no module URL for wasm
    return true;
  }
  sv ignored_url;
  SplitPosition(tail, &ignored_url, &f->line, &f->column);
  f->url = sv();
  return true;
}

// V8 eval: "eval at f (url:1:2), <anonymous>:3:4", nested evals inside the
// parentheses. The script is the innermost real location.
bool ParseV8EvalLocation(sv loc, ParsedFrame* f) {
  if (!StartsWith(loc, "eval at ")) return false;
  size_t comma = loc.rfind(", ");
  if (comma == sv::npos) return false;
  sv ignored_url;
  SplitPosition(loc.substr(comma + 2), &ignored_url, &f->line, &f->column);
  f->url = sv();
  sv head = loc.substr(0, comma);
  while (StartsWith(head, "eval at ")) {
    size_t open = head.find(" (");
    if (open == sv::npos || !EndsWith(head, ")")) return false;
    sv inner = head.substr(open + 2, head.size() - open - 3);
    if (StartsWith(inner, "eval at ")) {
      size_t c = inner.rfind(", ");
      if (c == sv::npos) return false;
      head = inner.substr(0, c);
      continue;
    }
    uint32_t l, c;
    SplitPosition(inner, &f->script_url, &l, &c);
    if (StartsWith(f->script_url, "<anonymous>")) f->script_url = sv();
    return true;
  }
  return false;
}

void ParseV8Location(sv loc, ParsedFrame* f) {
  if (ParseV8EvalLocation(loc, f)) return;
  if (ParseWasmLocation(loc, f)) {
    f->script_url = f->url;
    return;
  }
  if ((loc[0] == 'n' && loc == "native") || StartsWith(loc, "index ") ||
      StartsWith(loc, "<anonymous>")) {
    sv ignored;
    if (StartsWith(loc, "<anonymous>"))
      SplitPosition(loc, &ignored, &f->line, &f->column);
    return;  // builtin: no url
  }
  SplitPosition(loc, &f->url, &f->line, &f->column);
  f->script_url = f->url;
}

void ParseAtSignLocation(sv loc, ParsedFrame* f) {
  if (loc.empty() || loc == "[native code]" || StartsWith(loc, "self-hosted"))
    return;  // builtin
  if (loc == "[wasm code]") {
    f->is_wasm = true;
    return;
  }
  if (ParseAtSignEvalLocation(loc, f)) return;
  if (ParseWasmLocation(loc, f)) {
    f->script_url = f->url;
    return;
  }
  SplitPosition(loc, &f->url, &f->line, &f->column);
  f->script_url = f->url;
}

// "[Symbol.iterator]" at the end of a name is one segment.
sv LastSegment(sv name, char sep) {
  if (EndsWith(name, "]")) {
    size_t open = name.rfind('[');
    if (open != sv::npos) return name.substr(open);
  }
  size_t p = name.rfind(sep);
  return p == sv::npos ? name : name.substr(p + 1);
}

bool IsAccessorOrBound(sv n) {
  return StartsWith(n, "get ") || StartsWith(n, "set ") ||
         StartsWith(n, "bound ");
}

Status ParseV8(sv text, std::vector<ParsedFrame>* out) {
  bool async_seen = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == sv::npos) nl = text.size();
    sv line = TrimRight(TrimLeft(text.substr(pos, nl - pos)));
    pos = nl + 1;
    if (!StartsWith(line, "at ")) {
      // Message lines come before the first frame; after it, only frames.
      if (!out->empty() && !line.empty()) return Status::kMalformedStack;
      continue;
    }
    sv rest = line.substr(3);
    ParsedFrame f;
    if (StartsWith(rest, "async ")) {
      async_seen = true;
      rest.remove_prefix(6);
    }
    f.is_async = async_seen;
    sv loc = rest;
    size_t open = rest.find(" (");
    if (open != sv::npos && EndsWith(rest, ")")) {
      f.raw_name = rest.substr(0, open);
      loc = rest.substr(open + 2, rest.size() - open - 3);
    }
    if (loc.empty()) return Status::kMalformedStack;
    ParseV8Location(loc, &f);
    f.name = SpecFrameName(f.raw_name, StackFormat::kV8);
    if (f.is_wasm) f.name = f.raw_name;
    if (f.name == "eval" && f.url.empty() && !f.script_url.empty())
      f.name = sv();  // the top level of eval code is anonymous
    out->push_back(f);
  }
  return Status::kOk;
}

Status ParseAtSign(sv text, StackFormat format, std::vector<ParsedFrame>* out) {
  bool async_seen = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == sv::npos) nl = text.size();
    sv line = TrimRight(text.substr(pos, nl - pos));
    pos = nl + 1;
    if (line.empty()) continue;
    ParsedFrame f;
    size_t at = line.find('@');
    sv loc;
    if (at == sv::npos) {
      // JSC prints bare locations for some anonymous frames.
      if (line != "[native code]" && line.find(':') == sv::npos)
        return Status::kMalformedStack;
      loc = line;
    } else {
      f.raw_name = line.substr(0, at);
      loc = line.substr(at + 1);
    }
    // SpiderMonkey marks the first frame past an async boundary
    // "async*name" (or "<cause>*name"); every later frame is async too.
    size_t star = f.raw_name.find('*');
    if (star != sv::npos) {
      async_seen = true;
      f.raw_name = f.raw_name.substr(star + 1);
    }
    f.is_async = async_seen;
    ParseAtSignLocation(loc, &f);
    f.name = f.is_wasm ? f.raw_name : SpecFrameName(f.raw_name, format);
    out->push_back(f);
  }
  return Status::kOk;
}

}  // namespace

std::string_view SpecFrameName(std::string_view n, StackFormat format) {
  switch (format) {
    case StackFormat::kV8: {
      size_t as = n.find(" [as ");
      if (as != sv::npos && EndsWith(n, "]")) n = n.substr(0, as);
      if (StartsWith(n, "new ")) n.remove_prefix(4);
      if (!IsAccessorOrBound(n)) n = LastSegment(n, '.');
      if (n == "<anonymous>") return sv();
      return n;
    }
    case StackFormat::kSpiderMonkey:
      // Display names: '/' nests, '<' ends an anonymous function's name.
      if (EndsWith(n, "<")) return sv();
      n = LastSegment(n, '/');
      if (!IsAccessorOrBound(n)) n = LastSegment(n, '.');
      return n;
    case StackFormat::kJavaScriptCore:
      if (n == "global code" || n == "eval code" || n == "module code")
        return sv();
      return n;
    case StackFormat::kAuto:
      break;
  }
  return n;
}

StackFormat DetectStackFormat(std::string_view text) {
  bool any_at_sign = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == sv::npos) nl = text.size();
    sv line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (StartsWith(TrimLeft(line), "at ") && line.size() > 0 &&
        (line[0] == ' ' || line[0] == '\t'))
      return StackFormat::kV8;
    if (StartsWith(line, "global code@") || StartsWith(line, "eval code@") ||
        StartsWith(line, "module code@") ||
        EndsWith(TrimRight(line), "@[native code]") ||
        EndsWith(TrimRight(line), "@[wasm code]"))
      return StackFormat::kJavaScriptCore;
    if (line.find('@') != sv::npos) any_at_sign = true;
  }
  return any_at_sign ? StackFormat::kSpiderMonkey : StackFormat::kAuto;
}

Status ParseStack(std::string_view text, StackFormat format,
                  std::vector<ParsedFrame>* out) {
  out->clear();
  if (format == StackFormat::kAuto) {
    format = DetectStackFormat(text);
    if (format == StackFormat::kAuto) return Status::kOk;  // no frames
  }
  switch (format) {
    case StackFormat::kV8:
      return ParseV8(text, out);
    case StackFormat::kSpiderMonkey:
    case StackFormat::kJavaScriptCore:
      return ParseAtSign(text, format, out);
    case StackFormat::kAuto:
      break;
  }
  return Status::kInvalidArgument;
}

}  // namespace webprof
