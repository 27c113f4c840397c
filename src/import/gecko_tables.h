// Reading a Gecko profile's structure (internal to the Gecko importer):
// a first pass notes every process and thread and the offsets of their
// tables without keeping the tables; ReadTable/ReadStrings then read the
// one thread the importer chose. Errors are sentences starting "Gecko
// profile: " in the caller's string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "base/json_cursor.h"

namespace webprof::gecko {

constexpr size_t kAbsent = size_t(-1);
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct ThreadRef {
  std::string name, process_type, process_name;
  int64_t pid = 0, tid = 0;
  size_t samples = kAbsent, stacks = kAbsent, frames = kAbsent,
         strings = kAbsent;  // offsets of the tables' values
  size_t process = kAbsent;  // into Scan::processes; kAbsent: the parent
};

struct ProcessRef {
  double start_ms = kNaN;
  std::vector<std::string> pages;
  size_t sources = kAbsent;
};

struct Scan {
  double interval_ms = 0;
  double start_ms = kNaN;  // the parent process's meta.startTime
  std::vector<ProcessRef> processes;
  std::vector<ThreadRef> threads;
};

// A table as columns of numbers (NaN for null, absent or non-numeric cells).
using Columns = std::vector<std::vector<double>>;

// The reader: one per profile text.
class Reader {
 public:
  Reader(std::string_view json, std::string* error) : c_(json), error_(error) {}

  bool ScanProfile(Scan* scan);
  bool ReadTable(size_t at, const char* what,
                 const std::vector<std::string>& wanted, Columns* out);
  bool ReadStrings(size_t at, std::vector<std::string>* out);
  bool Fail(const std::string& what) {
    if (error_->empty()) *error_ = "Gecko profile: " + what;
    return false;
  }
  // The cursor's failure, said as the profile's.
  bool CursorFailed() { return Fail(c_.ok() ? "malformed" : c_.error()); }

 private:
  bool ScanProcess(Scan* scan, size_t process, int depth);
  bool ScanThreads(Scan* scan, size_t process);
  bool ScanThread(ThreadRef* t);
  bool ReadMeta(double* start_ms, double* interval_ms);
  bool ReadPages(std::vector<std::string>* pages);
  bool Integer(int64_t* out);

  JsonCursor c_;
  std::string* error_;
};

}  // namespace webprof::gecko
