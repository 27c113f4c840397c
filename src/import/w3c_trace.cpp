#include "import/w3c_trace.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <limits>
#include <vector>

#include "base/json_cursor.h"
#include "base/json_scan.h"
#include "trace/trace_loader.h"

namespace webprof {
namespace {

constexpr uint32_t kNone = TraceLoader::kNone;
static_assert(W3CTraceRows::kNone == kNone, "one 'absent'");

using FrameRow = W3CTraceRows::Frame;
using SampleRow = W3CTraceRows::Sample;

class Reader {
 public:
  Reader(std::string_view text, W3CTraceRows* rows)
      : resources(rows->resources),
        frames(rows->frames),
        stacks(rows->stacks),
        samples(rows->samples),
        c_(text),
        owned_(rows->owned) {}

  bool Run(std::string* error) {
    bool ok = c_.BeginObject();
    std::string key;
    while (ok && c_.NextKey(&key)) {
      if (key == "resources") {
        seen_ |= 1;
        ok = Table("resource", [this] {
          resources.push_back(Text());
          return c_.ok();
        });
      } else if (key == "frames") {
        seen_ |= 2;
        ok = Table("frame", [this] { return Frames(); });
      } else if (key == "stacks") {
        seen_ |= 4;
        ok = Table("stack", [this] { return Stacks(); });
      } else if (key == "samples") {
        seen_ |= 8;
        ok = Table("sample", [this] { return Samples(); });
      } else {
        ok = c_.Skip();
      }
    }
    if (!ok || !c_.ok() || !c_.AtEnd()) {
      *error = table_ ? std::string(table_) + " " + std::to_string(row_) +
                            ": " + c_.error()
                      : c_.error();
      return false;
    }
    if (seen_ != 15) {
      *error = std::string("no \"") +
               (!(seen_ & 1)   ? "resources"
                : !(seen_ & 2) ? "frames"
                : !(seen_ & 4) ? "stacks"
                               : "samples") +
               "\" member";
      return false;
    }
    return true;
  }

  std::vector<std::string_view>& resources;
  std::vector<FrameRow>& frames;
  std::vector<uint32_t>& stacks;  // [frame, parent] rows
  std::vector<SampleRow>& samples;
  // Checked as the samples are read: their times in order, every time
  // valid (finite, >= 0), the highest stack index (-1: none).
  bool sorted = true, times_valid = true;
  double max_stack = -1;

 private:
  std::string_view Text() {
    std::string_view v;
    if (!c_.String(&v, &scratch_)) return {};
    if (v.data() != scratch_.data()) return v;
    owned_.emplace_back(v);  // had escapes
    return owned_.back();
  }

  // A W3C index: an integer in [0, 2^32 - 2], or absent/null (kNone).
  bool Index(uint32_t* out) {
    if (c_.Match("null") || c_.TakeNull()) return *out = kNone, true;
    int64_t v;
    if (!c_.Int(&v)) return false;
    if (v < 0 || v >= kNone) return c_.Fail("an index >= 0");
    *out = static_cast<uint32_t>(v);
    return true;
  }

  // Rows of one table; an error names the table and the row.
  template <typename Row>
  bool Table(const char* name, Row row) {
    table_ = name;
    row_ = 0;
    if (!c_.BeginArray()) return false;
    for (; c_.NextElement(); ++row_)
      if (!row()) return false;
    table_ = nullptr;
    return c_.ok();
  }

  bool Frame() {
    FrameRow f;
    bool named = false;
    if (!c_.BeginObject()) return false;
    std::string_view key;
    while (c_.NextKey(&key, &key_scratch_)) {
      bool ok;
      if (key == "name") {
        f.name = Text();
        ok = c_.ok();
        named = true;
      } else if (key == "resourceId") {
        ok = Index(&f.resource);
      } else if (key == "line" || key == "column") {
        uint32_t v = 0;
        ok = Index(&v);
        (key == "line" ? f.line : f.column) = v == kNone ? 0 : v;
      } else {
        ok = c_.Skip();
      }
      if (!ok) return false;
    }
    if (c_.ok() && !named) return c_.Fail("a \"name\" member");
    frames.push_back(f);
    return c_.ok();
  }

  bool Stack() {
    uint32_t frame = kNone, parent = kNone;
    if (!c_.BeginObject()) return false;
    std::string_view key;
    while (c_.NextKey(&key, &key_scratch_)) {
      bool ok = key == "frameId"    ? Index(&frame)
                : key == "parentId" ? Index(&parent)
                                    : c_.Skip();
      if (!ok) return false;
    }
    if (c_.ok() && frame == kNone) return c_.Fail("a \"frameId\" member");
    stacks.push_back(frame);
    stacks.push_back(parent);
    return c_.ok();
  }

  void Keep(const SampleRow& s) {
    sorted &= s.timestamp >= last_time_;
    last_time_ = s.timestamp;
    max_stack = std::max(max_stack, s.stack);
    samples.push_back(s);
  }

  // One compact sample at p, {"timestamp":T} or {"timestamp":T,"stackId":S}
  // or {"stackId":S,"timestamp":T} with T and S numbers the cursor reads
  // inline (json_scan.h; 80 bytes read at most): its row and length, or 0
  // for anything else.
  static size_t CompactSample(const char* p, SampleRow* s) {
    using json_scan::SameBytes;
    static constexpr char kTime[] = "{\"timestamp\":",
                          kThenStack[] = ",\"stackId\":";
    static constexpr char kStack[] = "{\"stackId\":",
                          kThenTime[] = ",\"timestamp\":";
    size_t at, n;
    uint32_t v = kNone;
    if (SameBytes(p, kTime, sizeof kTime - 1)) {
      at = sizeof kTime - 1;
      if (!(n = json_scan::PlainDecimal(p + at, &s->timestamp))) return 0;
      at += n;
      if (SameBytes(p + at, kThenStack, sizeof kThenStack - 1)) {
        at += sizeof kThenStack - 1;
        if (!(n = json_scan::PlainIndex(p + at, &v))) return 0;
        at += n;
      }
    } else if (SameBytes(p, kStack, sizeof kStack - 1)) {
      at = sizeof kStack - 1;
      if (!(n = json_scan::PlainIndex(p + at, &v))) return 0;
      at += n;
      if (!SameBytes(p + at, kThenTime, sizeof kThenTime - 1)) return 0;
      at += sizeof kThenTime - 1;
      if (!(n = json_scan::PlainDecimal(p + at, &s->timestamp))) return 0;
      at += n;
    } else {
      return 0;
    }
    if (p[at] != '}') return 0;
    s->stack = v == kNone ? -1 : double(v);
    return at + 1;
  }

  // One compact stack row at p, {"frameId":F} or {"frameId":F,"parentId":P}
  // with plain indices (44 bytes, 60 read at most): its length, or 0.
  static size_t CompactStack(const char* p, uint32_t* frame, uint32_t* parent) {
    using json_scan::SameBytes;
    static constexpr char kFrame[] = "{\"frameId\":",
                          kThenParent[] = ",\"parentId\":";
    if (!SameBytes(p, kFrame, sizeof kFrame - 1)) return 0;
    size_t at = sizeof kFrame - 1, n;
    if (!(n = json_scan::PlainIndex(p + at, frame))) return 0;
    at += n;
    *parent = kNone;
    if (SameBytes(p + at, kThenParent, sizeof kThenParent - 1)) {
      at += sizeof kThenParent - 1;
      if (!(n = json_scan::PlainIndex(p + at, parent))) return 0;
      at += n;
    }
    return p[at] == '}' ? at + 1 : 0;
  }

  // One compact frame row at p (`room` bytes left, 2 * kScanRoom or more):
  // {"name":S} then, in this order, any of ,"resourceId":R ,"line":L
  // ,"column":C — S without escapes, plain indices. Its length, or 0.
  static size_t CompactFrame(const char* p, size_t room, FrameRow* f) {
    using json_scan::SameBytes;
    static constexpr char kName[] = "{\"name\":\"",
                          kResource[] = ",\"resourceId\":",
                          kLine[] = ",\"line\":", kColumn[] = ",\"column\":";
    if (!SameBytes(p, kName, sizeof kName - 1)) return 0;
    const char* const from = p + sizeof kName - 1;
    const char* r = from;
    // The rest of the row (≈ 60 bytes) stays within the room checked here.
    const char* const last = p + room - 2 * json_scan::kScanRoom;
    for (;;) {
      if (r > last) return 0;
      const unsigned run = json_scan::StringRun8(r);
      r += run;
      if (run < 8) break;
    }
    if (*r != '"') return 0;  // an escape or a control character
    f->name = std::string_view(from, static_cast<size_t>(r - from));
    size_t at = static_cast<size_t>(r + 1 - p), n;
    uint32_t v;
    if (SameBytes(p + at, kResource, sizeof kResource - 1)) {
      at += sizeof kResource - 1;
      if (!(n = json_scan::PlainIndex(p + at, &f->resource))) return 0;
      at += n;
    }
    if (SameBytes(p + at, kLine, sizeof kLine - 1)) {
      at += sizeof kLine - 1;
      if (!(n = json_scan::PlainIndex(p + at, &v))) return 0;
      f->line = v;
      at += n;
    }
    if (SameBytes(p + at, kColumn, sizeof kColumn - 1)) {
      at += sizeof kColumn - 1;
      if (!(n = json_scan::PlainIndex(p + at, &v))) return 0;
      f->column = v;
      at += n;
    }
    return p[at] == '}' ? at + 1 : 0;
  }

  // A table from this row on: rows in the compact shape `compact` reads
  // (the shapes webprof and most writers emit) are taken straight from the
  // text, row after row, without the cursor's per-member bookkeeping; the
  // first row in any other form (other order, spaces, more members, an
  // error) is read by `general` and the table's loop goes on from there.
  // compact(p, room) returns a row's length or 0, with kScanRoom * 2
  // bytes or more left at p.
  template <typename Compact, typename General>
  bool Rows(Compact compact, General general) {
    const std::string_view text = c_.text();
    const char* p = text.data();
    size_t i = c_.Offset();
    for (;;) {
      const size_t room = text.size() - i;
      const size_t n =
          room >= 2 * json_scan::kScanRoom ? compact(p + i, room) : 0;
      if (n == 0) {
        c_.Seek(i);
        return general();
      }
      i += n;
      if (p[i] != ',') break;  // ']' or space: NextElement() decides
      ++i;
      ++row_;
    }
    c_.Seek(i);
    return true;
  }

  bool Frames() {
    return Rows(
        [this](const char* p, size_t room) {
          FrameRow f;
          const size_t n = CompactFrame(p, room, &f);
          if (n) frames.push_back(f);
          return n;
        },
        [this] { return Frame(); });
  }

  bool Stacks() {
    return Rows(
        [this](const char* p, size_t) {
          uint32_t frame, parent;
          const size_t n = CompactStack(p, &frame, &parent);
          if (n) {
            stacks.push_back(frame);
            stacks.push_back(parent);
          }
          return n;
        },
        [this] { return Stack(); });
  }

  // The samples table: compact rows as above (a compact time is a plain
  // number >= 0: valid).
  bool Samples() {
    // Room for the rows the rest of the text can hold (a compact row is
    // 25 bytes or more), up to a bound: no regrowth copies.
    if (row_ == 0)
      samples.reserve(std::min<size_t>((c_.text().size() - c_.Offset()) / 25,
                                       size_t{1} << 20));
    return Rows(
        [this](const char* p, size_t) {
          SampleRow s;
          const size_t n = CompactSample(p, &s);
          if (n) Keep(s);
          return n;
        },
        [this] { return Sample(); });
  }

  bool Sample() {
    SampleRow s{-1, -1};
    bool timed = false;
    if (!c_.BeginObject()) return false;
    std::string_view key;
    while (c_.NextKey(&key, &key_scratch_)) {
      bool ok;
      if (key == "timestamp") {
        ok = c_.Number(&s.timestamp);
        timed = true;
      } else if (key == "stackId") {
        uint32_t v = kNone;
        ok = Index(&v);
        s.stack = v == kNone ? -1 : double(v);
      } else {
        ok = c_.Skip();
      }
      if (!ok) return false;
    }
    if (c_.ok() && !timed) return c_.Fail("a \"timestamp\" member");
    times_valid &= SampleTimeStatus(s.timestamp, -1) == Status::kOk;
    Keep(s);
    return c_.ok();
  }

  JsonCursor c_;
  std::string scratch_, key_scratch_;
  const char* table_ = nullptr;  // the table being read, for errors
  size_t row_ = 0;
  std::deque<std::string>& owned_;
  int seen_ = 0;
  double last_time_ = -std::numeric_limits<double>::infinity();
};

// The loader's rules for stack rows (trace_loader.h AddStacks), checked
// before anything is loaded so that the error names the row.
Status CheckStacks(const std::vector<uint32_t>& rows, size_t frames,
                   size_t* row) {
  const size_t n = rows.size() / 2;
  for (size_t i = 0; i < n; ++i) {
    *row = i;
    if (rows[2 * i] >= frames) return Status::kUnknownFrame;
    const uint32_t parent = rows[2 * i + 1];
    if (parent != kNone && parent >= n) return Status::kUnknownParent;
    if (parent != kNone && parent >= i) return Status::kParentNotBefore;
  }
  return Status::kOk;
}

}  // namespace

bool IsW3CTrace(std::string_view text) {
  JsonCursor c(text.substr(0, 64));
  std::string key;
  return c.BeginObject() && c.NextKey(&key) &&
         (key == "resources" || key == "frames" || key == "stacks" ||
          key == "samples");
}

Status ReadW3CTrace(std::string_view json, W3CTraceRows* rows,
                    std::string* error) {
  error->clear();
  std::string why;
  auto fail = [&](std::string what) {
    *error = "W3C trace: " + what;
    return Status::kMalformedProfile;
  };
  Reader reader(json, rows);
  if (!reader.Run(&why)) return fail(why);
  for (size_t i = 0; i < rows->frames.size(); ++i) {
    const uint32_t r = rows->frames[i].resource;
    if (r != kNone && r >= rows->resources.size())
      return fail("frame " + std::to_string(i) + ": " +
                  StatusMessage(Status::kUnknownResource));
  }
  size_t row = 0;
  Status st = CheckStacks(rows->stacks, rows->frames.size(), &row);
  if (st != Status::kOk)
    return fail("stack " + std::to_string(row) + ": " + StatusMessage(st));
  const double stacks = double(rows->stacks.size() / 2);
  // A second pass only to name the first bad sample.
  const bool samples_valid = reader.times_valid && reader.max_stack < stacks;
  for (size_t i = 0; !samples_valid && i < rows->samples.size(); ++i) {
    const SampleRow& s = rows->samples[i];
    // Order is not checked (sorted below).
    st = SampleTimeStatus(s.timestamp, -1);
    if (st == Status::kOk && s.stack >= stacks) st = Status::kUnknownStack;
    if (st != Status::kOk)
      return fail("sample " + std::to_string(i) + ": " + StatusMessage(st));
  }
  auto earlier = [](const SampleRow& a, const SampleRow& b) {
    return a.timestamp < b.timestamp;
  };
  if (!reader.sorted)
    std::stable_sort(rows->samples.begin(), rows->samples.end(), earlier);
  return Status::kOk;
}

Status ImportW3CTrace(std::string_view json, Session* out,
                      W3CTraceImportInfo* info, std::string* error) {
  *info = W3CTraceImportInfo{};
  W3CTraceRows r;
  Status st = ReadW3CTrace(json, &r, error);
  if (st != Status::kOk) return st;
  auto fail = [&](std::string what) {
    *error = "W3C trace: " + what;
    return Status::kMalformedProfile;
  };
  info->frames = static_cast<uint32_t>(r.frames.size());
  info->stacks = static_cast<uint32_t>(r.stacks.size() / 2);
  info->samples = static_cast<uint32_t>(r.samples.size());
  // The rows were checked: only a table's cap can refuse them now.
  TraceLoader loader(&out->trace());
  for (std::string_view url : r.resources) {
    st = loader.AddResource(url);
    if (st != Status::kOk)
      return fail(std::string("resources: ") + StatusMessage(st));
  }
  for (size_t i = 0; i < r.frames.size(); ++i) {
    const FrameRow& f = r.frames[i];
    st = loader.AddFrame(f.name, f.resource, f.line, f.column);
    if (st != Status::kOk)
      return fail("frame " + std::to_string(i) + ": " + StatusMessage(st));
  }
  st = loader.AddStacks(r.stacks.data(), r.stacks.size() / 2);
  if (st != Status::kOk)
    return fail("stacks: " + std::string(StatusMessage(st)));
  static_assert(sizeof(SampleRow) == sizeof(Sample), "a row fills a Sample");
  for (size_t at = 0; at < r.samples.size();) {
    SampleBuffer::Span span = loader.ReserveSamples(r.samples.size() - at);
    std::memcpy(static_cast<void*>(span.data), &r.samples[at],
                span.size * sizeof(SampleRow));
    st = loader.CommitSamples();
    if (st != Status::kOk) {
      // Which row: the loader drops the whole span, so find it again.
      return fail("samples " + std::to_string(at) + ".." +
                  std::to_string(at + span.size - 1) + ": " +
                  StatusMessage(st));
    }
    at += span.size;
  }
  loader.Finish();
  return Status::kOk;
}

}  // namespace webprof
