#include "export/format_registry.h"

#include <algorithm>
#include <cstring>

#include "export/format_chrome_trace.h"
#include "export/format_cpuprofile.h"
#include "export/format_perfetto.h"
#include "export/format_pprof.h"

namespace webprof {
namespace {

// The built-in formats (export/format_list.h), each with its writer.
const ExportFormat kBuiltinFormats[] = {
#define WEBPROF_FORMAT_ENTRY(e, id, key, name, stem, ext, mime, writer) \
  {int32_t(ExportFormatId::e), key, name, stem, ext, mime, &writer},
    WEBPROF_EXPORT_FORMAT_LIST(WEBPROF_FORMAT_ENTRY)
#undef WEBPROF_FORMAT_ENTRY
};

std::vector<ExportFormat>& Formats() {
  // Leaked on purpose: formats are looked up until the process ends.
  static auto* formats = new std::vector<ExportFormat>(
      std::begin(kBuiltinFormats), std::end(kBuiltinFormats));
  return *formats;
}

bool IsBuiltin(int32_t id) {
  for (const ExportFormat& f : kBuiltinFormats)
    if (f.id == id) return true;
  return false;
}

bool Text(const char* s) { return s != nullptr && *s != '\0'; }

}  // namespace

const std::vector<ExportFormat>& ExportFormats() { return Formats(); }

const ExportFormat* FindExportFormat(int32_t id) {
  for (const ExportFormat& f : Formats())
    if (f.id == id) return &f;
  return nullptr;
}

const ExportFormat* FindExportFormat(std::string_view key) {
  for (const ExportFormat& f : Formats())
    if (key == f.key) return &f;
  return nullptr;
}

Status WriteExport(int32_t id, const ExportInput& in, const ExportOptions& o,
                   ByteSink& out) {
  out.Clear();
  const ExportFormat* f = FindExportFormat(id);
  if (f == nullptr) return Status::kInvalidArgument;
  f->write(in, o, out);
  return Status::kOk;
}

Status RegisterExportFormat(const ExportFormat& format) {
  if (!Text(format.key) || !Text(format.name) || !Text(format.file_stem) ||
      !Text(format.extension) || !Text(format.mime_type) ||
      format.write == nullptr || FindExportFormat(format.id) != nullptr ||
      FindExportFormat(std::string_view(format.key)) != nullptr)
    return Status::kInvalidArgument;
  Formats().push_back(format);
  return Status::kOk;
}

bool UnregisterExportFormat(int32_t id) {
  if (IsBuiltin(id)) return false;
  auto& v = Formats();
  auto it = std::find_if(v.begin(), v.end(),
                         [id](const ExportFormat& f) { return f.id == id; });
  if (it == v.end()) return false;
  v.erase(it);
  return true;
}

}  // namespace webprof
