// Source scanning throughput (bytes/s) on a synthetic bundle mixing every
// function kind, strings, templates, regexes and comments; Resolve() per
// query on the scanned result; the transform's FindProbeSites on the same
// bundle and on one dense with loops (braced, unbraced, do-while).
// Baseline in the same run: a plain byte loop (counting newlines) over the
// same buffer, the floor any scanner pays.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "source/probe_sites.h"
#include "source/source_scanner.h"

namespace webprof {
namespace {

std::string Bundle(size_t bytes) {
  const char* unit =
      "// module chunk\n"
      "function decl_N(a, b) { return a / b + /re[/]x/g.test('s') ? 1 : 2; }\n"
      "const arrow_N = async (x) => { const t = `v ${x + `${x}`}`; return t; "
      "};\n"
      "class K_N extends Base { constructor(v) { super(v); this.v = v; }\n"
      "  get v() { return this._v; } static s() { return [1, 2].map(y => y * "
      "2); } }\n"
      "export const obj_N = { m() { return 1; }, f: function () { /* c */ } "
      "};\n";
  std::string out;
  while (out.size() < bytes) out += unit;
  return out;
}

void BM_ScanScript(benchmark::State& st) {
  std::string src = Bundle(static_cast<size_t>(st.range(0)));
  SourceScan scan;
  for (auto _ : st) {
    Status s = scan.ScanScript(src, ScanLimits());
    benchmark::DoNotOptimize(s);
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * src.size()));
  st.counters["functions"] = static_cast<double>(scan.functions().size());
}
BENCHMARK(BM_ScanScript)->Arg(64 << 10)->Arg(1 << 20);

std::string LoopBundle(size_t bytes) {
  const char* unit =
      "function sum_N(a) { let s = 0; for (let i = 0; i < a.length; i++) "
      "s += a[i];\n"
      "  for (const k in a) if (k) s++; else s--\n"
      "  while (s > 9) s = s / 2 | 0; do s++; while (s < 3)\n"
      "  for (;;) { if (s) break; } return s && { s } }\n";
  std::string out;
  while (out.size() < bytes) out += unit;
  return out;
}

void BM_FindProbeSites(benchmark::State& st) {
  std::string src = st.range(1) ? LoopBundle(static_cast<size_t>(st.range(0)))
                                : Bundle(static_cast<size_t>(st.range(0)));
  std::vector<uint32_t> sites;
  for (auto _ : st) {
    Status s = FindProbeSites(src, ScanLimits(), &sites);
    benchmark::DoNotOptimize(s);
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * src.size()));
  st.counters["sites"] = static_cast<double>(sites.size());
}
// Arg 1: 0 = the mixed bundle, 1 = the loop-dense one.
BENCHMARK(BM_FindProbeSites)->Args({1 << 20, 0})->Args({1 << 20, 1});

void BM_ByteLoopBaseline(benchmark::State& st) {
  std::string src = Bundle(static_cast<size_t>(st.range(0)));
  for (auto _ : st) {
    size_t lines = 0;
    for (char c : src) lines += c == '\n';
    benchmark::DoNotOptimize(lines);
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * src.size()));
}
BENCHMARK(BM_ByteLoopBaseline)->Arg(1 << 20);

void BM_Resolve(benchmark::State& st) {
  std::string src = Bundle(1 << 20);
  SourceScan scan;
  scan.ScanScript(src, ScanLimits());
  uint32_t line = 1;
  for (auto _ : st) {
    benchmark::DoNotOptimize(scan.Resolve(line, 20));
    line = line * 7 % 20000 + 1;
  }
}
BENCHMARK(BM_Resolve);

}  // namespace
}  // namespace webprof
