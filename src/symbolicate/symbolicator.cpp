#include "symbolicate/symbolicator.h"

#include <algorithm>

namespace webprof {
namespace {

// The first function that begins at or after (line, column) on that line.
// A frame is a function's start, and tools map a function's first token
// (`export`, `function`, `async`, a method's key) to a point just before
// the range the function finder gives it, so that function is the frame's.
const FunctionDefinition* StartingAt(const SourceScan& scan, uint32_t line,
                                     uint32_t column) {
  const auto& fns = scan.functions();  // sorted by begin
  SourcePosition at{line, column};
  auto it = std::lower_bound(fns.begin(), fns.end(), at,
                             [](const FunctionDefinition& f, SourcePosition p) {
                               return f.begin < p;
                             });
  if (it == fns.end() || it->begin.line != line) return nullptr;
  return &*it;
}

}  // namespace

const SourceScan* ScriptSymbolicator::ScanOf(uint32_t source) {
  if (scans_.size() < map_->sources().size()) {
    scans_.resize(map_->sources().size());
    scanned_.resize(map_->sources().size(), false);
  }
  if (!scanned_[source]) {
    scanned_[source] = true;
    if (map_->has_content(source)) {
      auto scan = std::make_unique<SourceScan>();
      if (scan->ScanScript(map_->content(source), limits_) == Status::kOk)
        scans_[source] = std::move(scan);
    }
  }
  return scans_[source].get();
}

bool ScriptSymbolicator::Resolve(uint32_t line, uint32_t column,
                                 OriginalFrame* out) {
  OriginalPosition pos;
  if (!map_->Lookup(line, column, &pos)) return false;
  if (map_->sources()[pos.source].empty()) return false;  // a null source
  *out = OriginalFrame{};
  out->source = pos.source;
  out->line = pos.line;
  out->column = pos.column;
  if (const SourceScan* scan = ScanOf(pos.source)) {
    const FunctionDefinition* f = StartingAt(*scan, pos.line, pos.column);
    if (f == nullptr) f = scan->Resolve(pos.line, pos.column);
    if (f == nullptr) {  // top-level code
      out->has_name = true;
      out->name = std::string_view();
      return true;
    }
    out->line = f->definition.line;
    out->column = f->definition.column;
    if (!f->name.empty()) {
      out->has_name = true;
      out->name = f->name;
      return true;
    }
  }
  if (pos.name != OriginalPosition::kNone) {
    out->has_name = true;
    out->name = map_->names()[pos.name];
  }
  return true;
}

}  // namespace webprof
