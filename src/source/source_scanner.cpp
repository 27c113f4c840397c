#include "source/source_scanner.h"

#include <algorithm>

namespace webprof {
namespace {

char Lower(char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

// Case-insensitive find of an ASCII needle.
size_t FindNoCase(std::string_view hay, std::string_view needle, size_t from) {
  if (needle.size() > hay.size()) return std::string_view::npos;
  for (size_t i = from; i + needle.size() <= hay.size(); ++i) {
    size_t k = 0;
    while (k < needle.size() && Lower(hay[i + k]) == needle[k]) ++k;
    if (k == needle.size()) return i;
  }
  return std::string_view::npos;
}

// The value of attribute `name` in a start tag's attribute text, and
// whether it is present at all.
bool Attribute(std::string_view attrs, std::string_view name,
               std::string* value) {
  size_t i = 0;
  while (i < attrs.size()) {
    while (i < attrs.size() &&
           (attrs[i] == ' ' || attrs[i] == '\t' || attrs[i] == '\n' ||
            attrs[i] == '\r' || attrs[i] == '\f' || attrs[i] == '/'))
      ++i;
    size_t n0 = i;
    while (i < attrs.size() && attrs[i] != '=' && attrs[i] != ' ' &&
           attrs[i] != '\t' && attrs[i] != '\n' && attrs[i] != '\r' &&
           attrs[i] != '/')
      ++i;
    std::string_view attr = attrs.substr(n0, i - n0);
    std::string v;
    if (i < attrs.size() && attrs[i] == '=') {
      ++i;
      if (i < attrs.size() && (attrs[i] == '"' || attrs[i] == '\'')) {
        char q = attrs[i++];
        size_t v0 = i;
        while (i < attrs.size() && attrs[i] != q) ++i;
        v = std::string(attrs.substr(v0, i - v0));
        ++i;
      } else {
        size_t v0 = i;
        while (i < attrs.size() && attrs[i] != ' ' && attrs[i] != '\t' &&
               attrs[i] != '\n')
          ++i;
        v = std::string(attrs.substr(v0, i - v0));
      }
    }
    if (attr.size() == name.size() && FindNoCase(attr, name, 0) == 0) {
      *value = v;
      return true;
    }
    if (attr.empty()) ++i;
  }
  return false;
}

// Classic and module scripts run; data blocks (other types) do not.
bool IsJavaScriptType(const std::string& type) {
  std::string t;
  for (char c : type)
    if (c != ' ' && c != '\t') t += Lower(c);
  return t.empty() || t == "module" ||
         t.find("javascript") != std::string::npos ||
         t.find("ecmascript") != std::string::npos || t == "text/jscript";
}

}  // namespace

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
  SourcePosition pos{1, 1};
  size_t at = 0;  // `pos` is the position of doc[at]
  size_t i = 0;
  // Next "<script" at or after i, kept across iterations so that skipping
  // many comments stays linear in the document size.
  size_t tag = FindNoCase(doc, "<script", 0);
  while (true) {
    if (tag != std::string_view::npos && tag < i)
      tag = FindNoCase(doc, "<script", i);
    size_t comment = doc.find("<!--", i);
    if (comment != std::string_view::npos && comment < tag) {
      size_t close = doc.find("-->", comment + 4);
      if (close == std::string_view::npos) break;
      i = close + 3;
      continue;
    }
    if (tag == std::string_view::npos) break;
    char after = tag + 7 < doc.size() ? doc[tag + 7] : '\0';
    if (!(after == '>' || after == ' ' || after == '\t' || after == '\n' ||
          after == '\r' || after == '/' || after == '\f')) {
      i = tag + 7;
      continue;
    }
    // The start tag ends at the first `>` outside a quoted value.
    size_t k = tag + 7;
    char quote = 0;
    for (; k < doc.size(); ++k) {
      if (quote) {
        if (doc[k] == quote) quote = 0;
      } else if (doc[k] == '"' || doc[k] == '\'') {
        quote = doc[k];
      } else if (doc[k] == '>') {
        break;
      }
    }
    if (k >= doc.size()) break;
    std::string_view attrs = doc.substr(tag + 7, k - tag - 7);
    size_t content = k + 1;
    size_t end = FindNoCase(doc, "</script", content);
    if (end == std::string_view::npos) end = doc.size();
    std::string type, src;
    bool inline_js =
        !Attribute(attrs, "src", &src) &&
        (!Attribute(attrs, "type", &type) || IsJavaScriptType(type));
    if (inline_js) {
      AdvancePosition(doc.substr(at, content - at), &pos);
      at = content;
      if (AppendScript(doc.substr(content, end - content), pos, limits) ==
          Status::kOk)
        ++scripts_scanned_;
      else
        ++scripts_skipped_;
    }
    i = end;
  }
  Finish();
  return Status::kOk;
}

Status FindProbeSites(std::string_view source, const ScanLimits& limits,
                      std::vector<uint32_t>* sites) {
  sites->clear();
  if (source.size() > limits.max_bytes) return Status::kSourceTooLarge;
  std::vector<Token> tokens;
  Status s = Tokenize(source, SourcePosition{1, 1}, limits.tokens, &tokens);
  if (s != Status::kOk) return s;
  std::vector<FunctionDefinition> functions;
  s = FindFunctions(source, tokens, &functions, sites);
  if (s != Status::kOk) {
    sites->clear();
    return s;
  }
  for (const FunctionDefinition& f : functions)
    if (f.body != FunctionDefinition::kNone) sites->push_back(f.body);
  std::sort(sites->begin(), sites->end());
  sites->erase(std::unique(sites->begin(), sites->end()), sites->end());
  return Status::kOk;
}

void SourceScan::Finish() {
  std::sort(functions_.begin(), functions_.end(),
            [](const FunctionDefinition& a, const FunctionDefinition& b) {
              if (!(a.begin == b.begin)) return a.begin < b.begin;
              return b.end < a.end;  // outer first
            });
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

}  // namespace webprof
