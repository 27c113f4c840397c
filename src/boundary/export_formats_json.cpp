// The built-in export formats (export/format_list.h) for JS, apart from
// DeclarationsJson: the page's core and the tools module declare them (a
// page lists formats and registers its own before the writers' module is
// loaded), the probes' own core does not carry them.
#include <string>

#include "boundary/boundary.h"
#include "boundary/json_text.h"
#include "export/format_list.h"

namespace webprof::boundary {

std::string ExportFormatsJson() {
  // One loop over a table, not one expansion per format and field: the
  // page's core is compiled for size, and inlined, the expansions were 4 KB.
  struct Row {
    int id;
    const char* text[5];
  };
#define WEBPROF_FORMAT_ROW(e, id, key, name, stem, ext, mime, writer) \
  {id, {key, name, stem, ext, mime}},
  static const Row kRows[] = {WEBPROF_EXPORT_FORMAT_LIST(WEBPROF_FORMAT_ROW)};
#undef WEBPROF_FORMAT_ROW
  static const char* const kKeys[5] = {"key", "name", "fileStem", "extension",
                                       "mimeType"};
  std::string out = "[";
  for (const Row& row : kRows) {
    if (out.size() > 1) out.push_back(',');
    Object f(&out);
    f.Int("id", row.id);
    for (int k = 0; k < 5; ++k) Str(row.text[k], f.Key(kKeys[k]));
    f.Close();
  }
  out.push_back(']');
  return out;
}

}  // namespace webprof::boundary
