// The built-in export formats as data, declared once. The registry
// (format_registry.cpp) pairs each entry with its writer; the boundary's
// declarations (boundary/declarations_json.cpp) carry the rest to JS, so a
// page can list formats and register its own before the writers — which live
// in the lazily loaded tools module — are there. Header-only: naming a
// format links none of the writers.
//
// X(enumerator, id, key, name, file stem, extension, MIME type, writer)
// Ids are stable numbers that cross the Wasm boundary; keys are the names JS
// uses. A new format: its writer in a format_*.cpp file and one line here.
#pragma once

#define WEBPROF_EXPORT_FORMAT_LIST(X)                                        \
  X(kChromeTrace, 0, "chrome", "Chrome Trace Event JSON", "trace", "json",   \
    "application/json", WriteChromeTraceFormat)                              \
  X(kCpuProfile, 1, "cpuprofile", "V8 CPU profile", "profile", "cpuprofile", \
    "application/json", WriteCpuProfileFormat)                               \
  X(kPerfetto, 2, "perfetto", "Perfetto protobuf trace", "trace", "pftrace", \
    "application/octet-stream", WritePerfettoFormat)                         \
  X(kPprof, 3, "pprof", "pprof profile (gzipped protobuf)", "profile",       \
    "pb.gz", "application/gzip", WritePprofFormat)
