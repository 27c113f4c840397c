#include "source/source_scanner.h"

#include <algorithm>

#include "source/html_scripts.h"

namespace webprof {
void SourceScan::Clear() {
  functions_.clear();
  scripts_.clear();
  tokens_.clear();
  tokens_.shrink_to_fit();
  scripts_scanned_ = 0;
  scripts_skipped_ = 0;
}

Status SourceScan::AppendScript(std::string_view source, SourcePosition base,
                                const ScanLimits& limits) {
  if (source.size() > limits.max_bytes) return Status::kSourceTooLarge;
  SourcePosition end;
  Status s = Tokenize(source, base, limits.tokens, &tokens_, &end);
  if (s == Status::kOk) {
    size_t before = functions_.size();
    s = FindFunctions(source, tokens_, &functions_);
    if (s != Status::kOk) functions_.resize(before);
  }
  if (s == Status::kOk) scripts_.push_back(ScriptRegion{base, end});
  tokens_.clear();
  if (tokens_.capacity() > (1u << 16)) tokens_.shrink_to_fit();
  return s;
}

Status SourceScan::ScanScript(std::string_view source, const ScanLimits& limits,
                              SourcePosition base) {
  Clear();
  Status s = AppendScript(source, base, limits);
  if (s != Status::kOk) {
    functions_.clear();
    scripts_skipped_ = 1;
    return s;
  }
  scripts_scanned_ = 1;
  Finish();
  return Status::kOk;
}

Status SourceScan::ScanHtml(std::string_view doc, const ScanLimits& limits) {
  Clear();
  if (doc.size() > limits.max_bytes) return Status::kSourceTooLarge;
  std::vector<HtmlScript> scripts;
  FindHtmlScripts(doc, &scripts);
  SourcePosition pos{1, 1};
  size_t at = 0;  // `pos` is the position of doc[at]
  for (const HtmlScript& h : scripts) {
    if (h.external() || !h.javascript) continue;
    AdvancePosition(doc.substr(at, h.content_begin - at), &pos);
    at = h.content_begin;
    if (AppendScript(
            doc.substr(h.content_begin, h.content_end - h.content_begin), pos,
            limits) == Status::kOk)
      ++scripts_scanned_;
    else
      ++scripts_skipped_;
  }
  Finish();
  return Status::kOk;
}

namespace {
// A scan's order: by begin, and of two functions that begin together the
// outer (later end) first.
bool OuterFirst(const FunctionDefinition& a, const FunctionDefinition& b) {
  if (!(a.begin == b.begin)) return a.begin < b.begin;
  return b.end < a.end;
}
}  // namespace

void SourceScan::Finish() {
  std::sort(functions_.begin(), functions_.end(), OuterFirst);
  LinkParents();
}

void SourceScan::LinkParents() {
  std::vector<uint32_t> open;
  for (uint32_t i = 0; i < functions_.size(); ++i) {
    FunctionDefinition& f = functions_[i];
    while (!open.empty() && functions_[open.back()].end <= f.begin)
      open.pop_back();
    f.parent = open.empty() ? FunctionDefinition::kNone : open.back();
    open.push_back(i);
  }
}

bool SourceScan::ScriptStart(uint32_t line, uint32_t column,
                             SourcePosition* out) const {
  SourcePosition p{line, column};
  for (const ScriptRegion& r : scripts_) {
    if (r.begin <= p && p <= r.end) {
      *out = r.begin;
      return true;
    }
  }
  return false;
}

const FunctionDefinition* SourceScan::Resolve(uint32_t line,
                                              uint32_t column) const {
  SourcePosition p{line, column};
  // The last function starting at or before p; then out through parents
  // until one contains p.
  auto it = std::upper_bound(functions_.begin(), functions_.end(), p,
                             [](SourcePosition q, const FunctionDefinition& f) {
                               return q < f.begin;
                             });
  if (it == functions_.begin()) return nullptr;
  uint32_t i = static_cast<uint32_t>(it - functions_.begin()) - 1;
  while (i != FunctionDefinition::kNone) {
    const FunctionDefinition& f = functions_[i];
    if (p < f.end) return &f;
    i = f.parent;
  }
  return nullptr;
}

bool SourceScan::IsEntryCheck(uint32_t line, uint32_t column) const {
  const FunctionDefinition* f = Resolve(line, column);
  if (!f || f->entry_check.line == 0) return false;
  auto at = [&](SourcePosition p) {
    return p.line == line && p.column == column;
  };
  return at(f->entry_check) || at(f->entry_check_paren);
}

}  // namespace webprof
