// A stable bottom-up merge sort: std::stable_sort instantiates three merge
// routines around each comparator (≈ 5 KB of Wasm for one), std::sort an
// introsort with its insertion and heap sorts (≈ 3 KB); the page's and the
// probes' cores (docs/ARCHITECTURE.md "What a page loads") sort few lists,
// none on a per-sample or per-probe path, so one small loop serves them all.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace webprof {

// Sorts `v` by `less`, keeping the order of equal elements; one scratch copy.
template <typename T, typename Less>
void StableSort(std::vector<T>* v, Less less) {
  const size_t n = v->size();
  if (n < 2) return;
  std::vector<T> merged(n);
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      const size_t mid = std::min(lo + width, n);
      const size_t hi = std::min(lo + 2 * width, n);
      size_t i = lo, j = mid, k = lo;
      // The right run's element goes first only when strictly less: stable.
      while (i < mid && j < hi)
        merged[k++] = less((*v)[j], (*v)[i]) ? (*v)[j++] : (*v)[i++];
      while (i < mid) merged[k++] = (*v)[i++];
      while (j < hi) merged[k++] = (*v)[j++];
    }
    v->swap(merged);
  }
}

}  // namespace webprof
