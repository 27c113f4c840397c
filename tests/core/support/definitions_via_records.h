// Test helper: the definitions of a trace's frames the way a page gets them.
// The trace's frame positions cross as records to where the scans are, the
// definitions looked up there cross back as records (both decoders must take
// what the encoders wrote: source/frame_definitions.h).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "source/frame_definitions.h"
#include "source/source_index.h"

namespace webprof {

// `scans` by resource id.
inline void DefinitionsViaRecords(const std::vector<const SourceScan*>& scans,
                                  const ProfilerTrace& trace,
                                  FrameDefinitions* out) {
  std::vector<uint32_t> words;
  EncodeFramePositions(trace, &words);
  FramePositions positions;
  ASSERT_EQ(positions.Decode(words.data(), words.size()), Status::kOk);
  FrameDefinitions there;
  there.Define(scans, positions);
  there.Encode(&words);
  ASSERT_EQ(out->Decode(words.data(), words.size(), trace.frames().size()),
            Status::kOk);
}

// The scans of `index`, found by the URLs the trace's resources have.
inline void DefinitionsViaRecords(const SourceIndex& index,
                                  const ProfilerTrace& trace,
                                  FrameDefinitions* out) {
  std::vector<std::string> urls;
  for (uint32_t r = 0; r < trace.resources().size(); ++r)
    urls.emplace_back(trace.resource_url(ResourceId(r)));
  DefinitionsViaRecords(index.ScansFor(urls), trace, out);
}

}  // namespace webprof
