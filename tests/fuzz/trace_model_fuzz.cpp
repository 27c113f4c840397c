// Drives a Session with arbitrary operations and checks the trace's
// integrity invariants after every step: ids dense and in range, parents
// before children, the buffer never above its limit, UTF-8 always valid.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "base/utf8.h"
#include "fuzz_reader.h"
#include "trace/session.h"
#include "trace_invariants.h"

using namespace webprof;

namespace {

using Reader = fuzz::Reader;
using fuzz::Check;

// The shared integrity, names valid UTF-8 and the buffer within its limit.
void CheckInvariants(const Session& s) {
  const ProfilerTrace& t = s.trace();
  fuzz::CheckTrace(t);
  for (const Frame& f : t.frames().rows())
    Check(IsValidUtf8(t.names().Get(f.name)));
  Check(t.samples().size() <= s.max_buffer_size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  Session s({1, r.Byte() % 64u, 0});
  std::vector<FrameId> frames;
  while (r.n) {
    switch (r.Byte() % 6) {
      case 0: {
        RawFrame raw{r.Bytes(), r.Bytes(), r.U32() % 5, r.U32() % 5};
        FrameId f = s.trace().InternFrame(raw);
        if (!f.is_none()) frames.push_back(f);
        break;
      }
      case 1: {
        std::vector<FrameId> stack;
        size_t depth = r.Byte() % 8;
        for (size_t i = 0; i < depth && !frames.empty(); ++i)
          stack.push_back(frames[r.Byte() % frames.size()]);
        s.trace().InternStack(stack.data(), stack.size());
        break;
      }
      case 2: {
        StackId out;
        s.trace().InternStack(FrameId(r.U32() % 16), StackId(r.U32() % 16),
                              &out);
        break;
      }
      case 3:
        s.TakeSample(r.F64(),
                     r.Byte() % 2 ? StackId(r.Byte() % 16) : StackId::None());
        break;
      case 4:
        s.TakeSample(r.Byte(), StackId::None());
        break;
      case 5:
        if (r.Byte() % 2)
          s.Pause();
        else
          s.Resume();
        break;
    }
    CheckInvariants(s);
  }
  return 0;
}
