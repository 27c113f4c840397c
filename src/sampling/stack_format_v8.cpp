// V8 (Chromium, Node): "Error: msg\n    at name (url:line:col)\n    at
// url:l:c". Names: "K.m" / "Object.om" / "Array.<anonymous>" -> the part after
// the last
// '.'; "new K" -> "K"; "async f" marks an async frame; " [as alias]" is
// dropped; builtins have "native", "index N" or "<anonymous>" as location.
#include "sampling/stack_formats.h"
#include "sampling/stack_text.h"

namespace webprof {
namespace {

using namespace stack_text;

// "eval at f (url:1:2), <anonymous>:3:4", nested evals inside the
// parentheses. The script is the innermost real location.
bool ParseEvalLocation(sv loc, ParsedFrame* f) {
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

void ParseLocation(sv loc, ParsedFrame* f) {
  if (ParseEvalLocation(loc, f)) return;
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

sv SpecName(sv n) {
  size_t as = n.find(" [as ");
  if (as != sv::npos && EndsWith(n, "]")) n = n.substr(0, as);
  if (StartsWith(n, "new ")) n.remove_prefix(4);
  if (!IsAccessorOrBound(n)) n = LastSegment(n, '.');
  if (n == "<anonymous>") return sv();
  return n;
}

bool ClaimsLine(sv line) {
  return StartsWith(TrimLeft(line), "at ") && !line.empty() &&
         (line[0] == ' ' || line[0] == '\t');
}

Status Parse(sv text, std::vector<ParsedFrame>* out) {
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
    ParseLocation(loc, &f);
    f.name = f.is_wasm ? f.raw_name : SpecName(f.raw_name);
    if (f.name == "eval" && f.url.empty() && !f.script_url.empty())
      f.name = sv();  // the top level of eval code is anonymous
    out->push_back(f);
  }
  return Status::kOk;
}

}  // namespace

const StackFormatRules kV8StackRules = {StackFormat::kV8, ClaimsLine, Parse,
                                        SpecName};

}  // namespace webprof
