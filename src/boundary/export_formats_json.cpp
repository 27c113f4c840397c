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
  std::string out = "[";
  bool first = true;
#define WEBPROF_FORMAT_JSON(e, id, key, name, stem, ext, mime, writer) \
  {                                                                    \
    if (!first) out.push_back(',');                                    \
    first = false;                                                     \
    Object f(&out);                                                    \
    f.Int("id", id);                                                   \
    Str(key, f.Key("key"));                                            \
    Str(name, f.Key("name"));                                          \
    Str(stem, f.Key("fileStem"));                                      \
    Str(ext, f.Key("extension"));                                      \
    Str(mime, f.Key("mimeType"));                                      \
    f.Close();                                                         \
  }
  WEBPROF_EXPORT_FORMAT_LIST(WEBPROF_FORMAT_JSON)
#undef WEBPROF_FORMAT_JSON
  out.push_back(']');
  return out;
}

}  // namespace webprof::boundary
