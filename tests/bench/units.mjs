// The timed loop of the benchmark pages (tests/bench/accuracy/page.html,
// tests/bench/check-cost/page.html): a library module's unit() n times in a
// row, awaiting the asynchronous ones; resolves to the elapsed ms.
export async function runUnits(mod, n) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const r = mod.unit();
    if (r && typeof r.then === 'function') await r;
  }
  return performance.now() - t0;
}
