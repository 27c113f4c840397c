// Any Error.stack text: the parser returns a defined status, every view it
// hands out lies inside the input, positions are consistent, and the
// sampler interns the visible frames into a trace whose rows stay valid.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sampling/stack_sampler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<webprof::ParsedFrame> frames;
  webprof::Status st =
      webprof::ParseStack(in, webprof::StackFormat::kAuto, &frames);
  if (st != webprof::Status::kOk && st != webprof::Status::kMalformedStack)
    std::abort();
  const char* lo = in.data();
  const char* hi = in.data() + in.size();
  for (const auto& f : frames) {
    for (std::string_view v : {f.name, f.url, f.script_url, f.raw_name})
      if (!v.empty() && (v.data() < lo || v.data() + v.size() > hi))
        std::abort();
    if (f.line == 0 && !f.is_wasm && f.column != 0) std::abort();
  }
  webprof::StackSampler sampler;
  sampler.MuteScript("https://cdn.test/lib.js");
  webprof::Session session(webprof::SessionOptions{1, 4, 0});
  webprof::Session* sessions[] = {&session};
  webprof::Status result;
  sampler.Sample(in, webprof::StackFormat::kAuto, 1, sessions, 1, &result);
  const auto& trace = session.trace();
  for (const auto& s : trace.stacks().rows()) {
    if (!trace.frames().Contains(s.frame)) std::abort();
  }
  if (trace.samples().size() != 1) std::abort();
  return 0;
}
