// Feeds arbitrary Error.stack-like texts to the seed-002 path (sampled by a
// StackSampler into a Session, or annotated by RuntimeProfile) and checks
// the call tree after each step: samples = selfCount + sum(children) at
// every node, the root counts every sample, parents precede children, and
// the JSON is one balanced object, with and without a scanned source.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/call_tree.h"
#include "runtime/runtime_profile.h"
#include "source/frame_definitions.h"
#include "source/source_index.h"
#include "trace/session.h"

using namespace webprof;

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

void CheckTree(const CallTree& t, size_t samples) {
  const auto& nodes = t.nodes();
  std::vector<uint64_t> child_sum(nodes.size(), 0);
  for (size_t i = 1; i < nodes.size(); ++i) {
    Check(nodes[i].parent < i);
    child_sum[nodes[i].parent] += nodes[i].samples;
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    Check(nodes[i].samples == nodes[i].self_count + child_sum[i]);
  Check(nodes[0].samples == samples);
}

void CheckJson(const std::string& json) {
  // Balanced outside strings, never closing below depth 0 before the end.
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      else
        Check(static_cast<unsigned char>(c) >= 0x20);
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']')
      Check(--depth >= 0 && (depth > 0 || i + 1 == json.size()));
  }
  Check(depth == 0 && !in_string && !json.empty() && json[0] == '{');
}

constexpr std::string_view kScript = "http://a/x.js";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Session session({0, 64, 0});
  StackSampler sampler;
  sampler.AddOwnUrlPrefix("http://w/");
  RuntimeProfile profile;
  SourceIndex sources;  // op 4: the text becomes the source of kScript
  std::string_view in(reinterpret_cast<const char*>(data), size);
  double ts = 0;
  // Texts are separated by NUL; a text's first byte picks the operation.
  while (!in.empty()) {
    size_t end = in.find('\0');
    std::string_view text = in.substr(0, end);
    in =
        end == std::string_view::npos ? std::string_view() : in.substr(end + 1);
    if (text.empty()) continue;
    uint8_t op = static_cast<uint8_t>(text[0]) % 5;
    text.remove_prefix(1);
    if (op == 0) {
      uint32_t slot = 0;
      size_t before = profile.annotation_count();
      if (profile.Annotate(text, &session.trace(), &slot) == Status::kOk)
        Check(slot <= before);
    } else if (op == 3) {
      profile.ClearAnnotations();
    } else if (op == 4) {
      sources.Add(kScript, text, false);
    } else {
      Session* s = &session;
      Status r;
      sampler.Sample(text, StackFormat::kAuto, ts++, &s, 1, &r);
    }
    // The definitions as a page gets them: positions out, definitions in.
    std::vector<uint32_t> words;
    EncodeFramePositions(session.trace(), &words);
    FramePositions positions;
    Check(positions.Decode(words.data(), words.size()) == Status::kOk);
    FrameDefinitions there, definitions;
    there.Define(sources.ScansFor(positions.urls), positions);
    there.Encode(&words);
    Check(definitions.Decode(words.data(), words.size(),
                             session.trace().frames().size()) == Status::kOk);
    CheckJson(profile.ResultsJson(session.trace(), &definitions));
    CallTree t;
    t.Build(session.trace(), nullptr, &definitions);
    CheckTree(t, session.trace().samples().size());
  }
  return 0;
}
