// The <script> elements of an HTML document, found without a DOM.
//
// Two readers need them: the source scanner (frame positions of inline
// scripts, source_scanner.h) and the dense-sampling transform of whole
// documents (js/transform/html.mjs), which rewrites each inline script in
// place and must know which external scripts carry an `integrity` hash.
// The rules are the tokenizer's, simplified: comments are skipped, a start
// tag ends at the first `>` outside a quoted value, a script's content ends
// at the next `</script` (any case). Offsets are bytes into the document.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace webprof {

struct HtmlScript {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  uint32_t content_begin = 0;  // just after the start tag's `>`
  uint32_t content_end = 0;    // at `</script`, or the document's end
  bool javascript = false;     // a classic or module script (not a data block)
  bool module = false;         // type="module"
  bool integrity = false;      // has an `integrity` attribute (SRI)
  // The `src` attribute's value as [src_begin, src_end); kNone if absent.
  uint32_t src_begin = kNone;
  uint32_t src_end = kNone;
  bool external() const { return src_begin != kNone; }
};

// Appends every <script> element of `doc`, in document order.
void FindHtmlScripts(std::string_view doc, std::vector<HtmlScript>* out);

}  // namespace webprof
