// The merge without Node: every file of a directory read into memory, then
// merged with ProfileMerger::AddInput; prints the CPU time of the merge, its
// throughput and the totals (the same as tests/bench/merge_bench.mjs's).
// Run it under `valgrind --tool=callgrind` for instruction counts, which a
// shared machine's load does not change (docs/BENCHMARKS.md, merge).
//
//   build/native/tests/bench/webprof_merge_driver DIR [name filter]
#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "merge/profile_merger.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [name filter]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1], filter = argc > 2 ? argv[2] : "";
  std::vector<std::string> names, texts;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n[0] != '.' && n.find(filter) != std::string::npos)
        names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  size_t bytes = 0;
  for (const std::string& n : names) {
    std::FILE* f = std::fopen((dir + "/" + n).c_str(), "rb");
    if (!f) return 2;
    std::string text;
    char buf[1 << 16];
    for (size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;)
      text.append(buf, got);
    std::fclose(f);
    bytes += text.size();
    texts.push_back(std::move(text));
  }
  const std::clock_t start = std::clock();
  webprof::ProfileMerger m;
  std::string error;
  webprof::MergeInputInfo info;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (m.AddInput(texts[i], names[i], &info, &error) != webprof::Status::kOk) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
  }
  const double s = double(std::clock() - start) / CLOCKS_PER_SEC;
  std::printf(
      "%zu files, %.1f MB: %.3f s CPU, %.0f MB/s; %llu samples, %lld ns, %u "
      "stacks\n",
      texts.size(), bytes / 1e6, s, bytes / 1e6 / s,
      static_cast<unsigned long long>(m.totals().samples),
      static_cast<long long>(m.totals().time_ns), m.weighted_stacks());
  return 0;
}
