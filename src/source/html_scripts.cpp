#include "source/html_scripts.h"

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

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// Attribute `name` in a start tag's attribute text: whether it is present,
// and its value as offsets into `attrs`.
bool Attribute(std::string_view attrs, std::string_view name, size_t* begin,
               size_t* end) {
  size_t i = 0;
  while (i < attrs.size()) {
    while (i < attrs.size() && (IsSpace(attrs[i]) || attrs[i] == '/')) ++i;
    size_t n0 = i;
    while (i < attrs.size() && attrs[i] != '=' && !IsSpace(attrs[i]) &&
           attrs[i] != '/')
      ++i;
    std::string_view attr = attrs.substr(n0, i - n0);
    size_t v0 = i, v1 = i;
    if (i < attrs.size() && attrs[i] == '=') {
      ++i;
      if (i < attrs.size() && (attrs[i] == '"' || attrs[i] == '\'')) {
        char q = attrs[i++];
        v0 = i;
        while (i < attrs.size() && attrs[i] != q) ++i;
        v1 = i;
        ++i;
      } else {
        v0 = i;
        while (i < attrs.size() && !IsSpace(attrs[i])) ++i;
        v1 = i;
      }
    }
    if (attr.size() == name.size() && FindNoCase(attr, name, 0) == 0) {
      *begin = v0;
      *end = v1;
      return true;
    }
    if (attr.empty()) ++i;
  }
  return false;
}

std::string Folded(std::string_view v) {
  std::string t;
  for (char c : v)
    if (c != ' ' && c != '\t') t += Lower(c);
  return t;
}

// Classic and module scripts run; data blocks (other types) do not.
bool IsJavaScriptType(const std::string& t) {
  return t.empty() || t == "module" ||
         t.find("javascript") != std::string::npos ||
         t.find("ecmascript") != std::string::npos || t == "text/jscript";
}

}  // namespace

void FindHtmlScripts(std::string_view doc, std::vector<HtmlScript>* out) {
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
      if (close == std::string_view::npos) return;
      i = close + 3;
      continue;
    }
    if (tag == std::string_view::npos) return;
    char after = tag + 7 < doc.size() ? doc[tag + 7] : '\0';
    if (!(after == '>' || after == '/' || IsSpace(after))) {
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
    if (k >= doc.size()) return;
    size_t attrs_at = tag + 7;
    std::string_view attrs = doc.substr(attrs_at, k - attrs_at);
    HtmlScript s;
    s.content_begin = static_cast<uint32_t>(k + 1);
    size_t end = FindNoCase(doc, "</script", k + 1);
    if (end == std::string_view::npos) end = doc.size();
    s.content_end = static_cast<uint32_t>(end);
    size_t b, e;
    std::string type;
    if (Attribute(attrs, "type", &b, &e)) type = Folded(attrs.substr(b, e - b));
    s.javascript = IsJavaScriptType(type);
    s.module = type == "module";
    s.integrity = Attribute(attrs, "integrity", &b, &e);
    if (Attribute(attrs, "src", &b, &e)) {
      s.src_begin = static_cast<uint32_t>(attrs_at + b);
      s.src_end = static_cast<uint32_t>(attrs_at + e);
    }
    out->push_back(s);
    i = end;
  }
}

}  // namespace webprof
