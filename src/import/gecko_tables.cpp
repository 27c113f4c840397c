#include "import/gecko_tables.h"

#include <algorithm>
#include <cstdlib>

#include "base/time_units.h"

namespace webprof::gecko {
namespace {
constexpr int kMaxProcessNesting = 4;
}  // namespace

bool Reader::ReadMeta(double* start_ms, double* interval_ms) {
  if (!c_.BeginObject()) return CursorFailed();
  std::string key;
  while (c_.NextKey(&key)) {
    bool ok = true;
    if (key == "startTime" && c_.Peek() == JsonCursor::Type::kNumber) {
      if (!c_.Number(start_ms)) return CursorFailed();
      if (const char* problem = ProfileTimeProblemMs(*start_ms))
        return Fail(std::string("meta.startTime ") + problem);
    } else if (key == "interval" && interval_ms &&
               c_.Peek() == JsonCursor::Type::kNumber)
      ok = c_.Number(interval_ms);
    else
      ok = c_.Skip();
    if (!ok) return CursorFailed();
  }
  return c_.ok() || CursorFailed();
}

bool Reader::ReadPages(std::vector<std::string>* pages) {
  if (!c_.BeginArray()) return CursorFailed();
  while (c_.NextElement()) {
    if (c_.Peek() != JsonCursor::Type::kObject) {
      if (!c_.Skip()) return CursorFailed();
      continue;
    }
    c_.BeginObject();
    std::string key, url;
    while (c_.NextKey(&key)) {
      if (key == "url" && c_.Peek() == JsonCursor::Type::kString) {
        if (!c_.String(&url)) return CursorFailed();
        pages->push_back(url);
      } else if (!c_.Skip()) {
        return CursorFailed();
      }
    }
  }
  return c_.ok() || CursorFailed();
}

// pid/tid: a number, or a string of digits in some profile versions.
bool Reader::Integer(int64_t* out) {
  if (c_.Peek() == JsonCursor::Type::kString) {
    std::string s;
    if (!c_.String(&s)) return false;
    *out = std::strtoll(s.c_str(), nullptr, 10);
    return true;
  }
  double v = 0;
  if (c_.Peek() != JsonCursor::Type::kNumber) return c_.Skip();
  if (!c_.Number(&v)) return false;
  *out = int64_t(v);
  return true;
}

bool Reader::ScanThread(ThreadRef* t) {
  if (!c_.BeginObject()) return CursorFailed();
  std::string key;
  while (c_.NextKey(&key)) {
    bool ok;
    bool text = c_.Peek() == JsonCursor::Type::kString;
    if (key == "name" && text)
      ok = c_.String(&t->name);
    else if (key == "processType" && text)
      ok = c_.String(&t->process_type);
    else if (key == "processName" && text)
      ok = c_.String(&t->process_name);
    else if (key == "pid")
      ok = Integer(&t->pid);
    else if (key == "tid")
      ok = Integer(&t->tid);
    else {
      size_t at = c_.Offset();
      if (key == "samples") t->samples = at;
      if (key == "stackTable") t->stacks = at;
      if (key == "frameTable") t->frames = at;
      if (key == "stringTable" || key == "stringArray") t->strings = at;
      ok = c_.Skip();
    }
    if (!ok) return CursorFailed();
  }
  return c_.ok() || CursorFailed();
}

bool Reader::ScanThreads(Scan* scan, size_t process) {
  if (!c_.BeginArray()) return CursorFailed();
  while (c_.NextElement()) {
    ThreadRef t;
    t.process = process;
    if (!ScanThread(&t)) return false;
    scan->threads.push_back(std::move(t));
  }
  return c_.ok() || CursorFailed();
}

// A process object (the profile itself at depth 0): meta, threads, pages,
// sources and its child processes.
bool Reader::ScanProcess(Scan* scan, size_t process, int depth) {
  if (depth > kMaxProcessNesting) return Fail("processes nested too deep");
  if (!c_.BeginObject()) return CursorFailed();
  std::string key;
  bool has_meta = false, has_threads = false;
  while (c_.NextKey(&key)) {
    bool ok;
    if (key == "meta") {
      has_meta = true;
      double start = kNaN;
      ok = ReadMeta(&start, depth == 0 ? &scan->interval_ms : nullptr);
      if (process == kAbsent)
        scan->start_ms = start;
      else
        scan->processes[process].start_ms = start;
    } else if (key == "threads") {
      has_threads = true;
      ok = ScanThreads(scan, process);
    } else if (key == "pages" && process != kAbsent) {
      ok = ReadPages(&scan->processes[process].pages);
    } else if (key == "sources" && process != kAbsent) {
      scan->processes[process].sources = c_.Offset();
      ok = c_.Skip();
    } else if (key == "processes") {
      if (!c_.BeginArray()) return CursorFailed();
      while (c_.NextElement()) {
        scan->processes.emplace_back();
        if (!ScanProcess(scan, scan->processes.size() - 1, depth + 1))
          return false;
      }
      ok = c_.ok();
    } else {
      ok = c_.Skip();
    }
    if (!ok) return error_->empty() ? CursorFailed() : false;
  }
  if (!c_.ok()) return CursorFailed();
  if (!has_meta || !has_threads)
    return Fail(depth == 0 ? "no \"meta\" and \"threads\" at the top level"
                           : "a process without \"meta\" and \"threads\"");
  return true;
}

bool Reader::ScanProfile(Scan* scan) {
  if (c_.Peek() != JsonCursor::Type::kObject)
    return Fail(c_.ok() ? "not a JSON object" : c_.error());
  return ScanProcess(scan, kAbsent, 0) && (c_.AtEnd() || CursorFailed());
}

// {schema: {column: index}, data: [[cell, ...], ...]}: the `wanted`
// columns ("?name": optional, all NaN when absent). Cells of other columns
// are skipped whatever they hold.
bool Reader::ReadTable(size_t at, const char* what,
                       const std::vector<std::string>& wanted, Columns* out) {
  out->assign(wanted.size(), {});
  if (at == kAbsent) return Fail(std::string("a thread without ") + what);
  c_.Seek(at);
  std::vector<size_t> index(wanted.size(), kAbsent);
  size_t data_at = kAbsent;
  if (!c_.BeginObject()) return CursorFailed();
  std::string key;
  while (c_.NextKey(&key)) {
    if (key == "schema") {
      if (!c_.BeginObject()) return CursorFailed();
      while (c_.NextKey(&key)) {
        double v = -1;
        if (c_.Peek() == JsonCursor::Type::kNumber && !c_.Number(&v))
          return CursorFailed();
        if (v < 0 && !c_.Skip()) return CursorFailed();
        for (size_t w = 0; w < wanted.size(); ++w)
          if (v >= 0 && v < 1e6 && (key == wanted[w] || "?" + key == wanted[w]))
            index[w] = size_t(v);
      }
    } else {
      if (key == "data") data_at = c_.Offset();
      if (!c_.Skip()) return CursorFailed();
    }
  }
  if (!c_.ok()) return CursorFailed();
  for (size_t w = 0; w < wanted.size(); ++w)
    if (index[w] == kAbsent && wanted[w][0] != '?')
      return Fail(std::string(what) + " has no \"" + wanted[w] +
                  "\" column in its schema");
  if (data_at == kAbsent) return Fail(std::string(what) + " has no data");
  c_.Seek(data_at);
  if (!c_.BeginArray()) return CursorFailed();
  while (c_.NextElement()) {
    for (auto& col : *out) col.push_back(kNaN);
    if (!c_.BeginArray()) return CursorFailed();
    for (size_t cell = 0; c_.NextElement(); ++cell) {
      auto w = std::find(index.begin(), index.end(), cell);
      JsonCursor::Type type = c_.Peek();
      bool ok;
      if (w == index.end() || (type != JsonCursor::Type::kNumber &&
                               type != JsonCursor::Type::kBool)) {
        ok = c_.Skip();
      } else if (type == JsonCursor::Type::kBool) {
        bool b = false;
        ok = c_.Bool(&b);
        (*out)[size_t(w - index.begin())].back() = b ? 1 : 0;
      } else {
        ok = c_.Number(&(*out)[size_t(w - index.begin())].back());
      }
      if (!ok) return CursorFailed();
    }
    if (!c_.ok()) return CursorFailed();
  }
  return c_.ok() || CursorFailed();
}

bool Reader::ReadStrings(size_t at, std::vector<std::string>* out) {
  if (at == kAbsent) return Fail("a thread without stringTable");
  c_.Seek(at);
  if (!c_.BeginArray()) return CursorFailed();
  while (c_.NextElement()) {
    out->emplace_back();
    if (!c_.String(&out->back())) return CursorFailed();
  }
  return c_.ok() || CursorFailed();
}

}  // namespace webprof::gecko
