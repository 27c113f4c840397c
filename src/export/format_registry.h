// The export formats, declared once: every consumer (the Wasm binding, the
// JS toX() functions and exportTrace(), the CLI's output files, the
// Playwright attachments, the demo's download links) reads this list instead
// of naming formats itself, so a new format is one new format_*.cpp file
// (its writer) plus one entry in export/format_list.h.
//
// Design (after speedscope's src/import/index.ts dispatcher): an entry is
// plain data plus one writer pointer; WriteExport() finds the entry and
// calls it. The list can be extended at run time (RegisterExportFormat) so a
// test can add a format in one file and see it dispatched, then remove it.
// Ids are stable numbers that cross the Wasm boundary (ExportFormatId for
// the built-ins); keys are the names JS uses ("chrome", ...).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "export/byte_sink.h"
#include "export/export_input.h"
#include "export/format_list.h"

namespace webprof {

// Numeric ids of the built-in formats (the boundary's format ids; the list is
// export/format_list.h).
enum class ExportFormatId : int32_t {
#define WEBPROF_FORMAT_ID(e, id, key, name, stem, ext, mime, writer) e = id,
  WEBPROF_EXPORT_FORMAT_LIST(WEBPROF_FORMAT_ID)
#undef WEBPROF_FORMAT_ID
};

using ExportWriter = void (*)(const ExportInput&, const ExportOptions&,
                              ByteSink&);

struct ExportFormat {
  int32_t id;             // unique; stable across builds for built-ins
  const char* key;        // unique short name: "chrome", "cpuprofile", ...
  const char* name;       // for people: "Chrome Trace Event JSON"
  const char* file_stem;  // default file name without extension: "trace"
  const char* extension;  // without the dot: "json"
  const char* mime_type;  // "application/json"
  ExportWriter write;
};

// Every format, built-ins first in id order, then registered ones in
// registration order. The reference is valid until the next
// (Un)RegisterExportFormat call.
const std::vector<ExportFormat>& ExportFormats();

// nullptr when no format has this id / key.
const ExportFormat* FindExportFormat(int32_t id);
const ExportFormat* FindExportFormat(std::string_view key);

// Writes `in` in format `id` into `out` (cleared first).
// kInvalidArgument: no such format (out is left empty).
Status WriteExport(int32_t id, const ExportInput& in, const ExportOptions& o,
                   ByteSink& out);

// Adds a format. kInvalidArgument when its id or key is taken, a text field
// is null/empty or it has no writer; the list is unchanged then.
Status RegisterExportFormat(const ExportFormat& format);
// Removes a registered format (built-ins stay); false if there was none.
bool UnregisterExportFormat(int32_t id);

}  // namespace webprof
