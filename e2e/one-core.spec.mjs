// One core per page: webprof, webprof/perf and the drop-in script, however a
// page combines them, instantiate WebAssembly once and share one probes
// state (a reporter set through one sees what another recorded).
import { test, expect } from '@playwright/test';

// Counts every way a page can compile or instantiate a Wasm module.
function countWasm() {
  window.__wasmInstantiations = 0;
  const W = WebAssembly;
  for (const name of ['instantiate', 'instantiateStreaming', 'compile', 'compileStreaming']) {
    const orig = W[name];
    W[name] = function (...args) {
      window.__wasmInstantiations++;
      return orig.apply(this, args);
    };
  }
  const OrigModule = W.Module;
  W.Module = function (...args) {
    window.__wasmInstantiations++;
    return new OrigModule(...args);
  };
}

const SEEN = { aggregates: ['shared-probe'], marks: ['start', 'shared-mark', 'end'] };

async function open(page, path) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(countWasm);
  await page.goto(path);
  const result = await page
    .waitForFunction(() => window.result)
    .then(() => page.evaluate(() => window.result));
  expect(errors).toEqual([]);
  return result;
}

test('webprof + webprof/perf: one Wasm instance, one probes state', async ({ page }) => {
  const r = await open(page, '/e2e/pages/one-core/esm.html');
  expect(r).toEqual({ seen: SEEN, instantiations: 1 });
  // And the other way round: reporter through webprof/perf, probes through webprof.
  const back = await page.evaluate(async () => {
    const [w, p, { exchange }] = await Promise.all([
      import('/dist/webprof.mjs'),
      import('/dist/webprof-perf.mjs'),
      import('/e2e/pages/one-core/exchange.mjs'),
    ]);
    return exchange(p, w);
  });
  expect(back).toEqual({ seen: SEEN, instantiations: 1 });
});

test('drop-in script first, then the ES modules: they use the drop-in', async ({ page }) => {
  const r = await open(page, '/e2e/pages/one-core/dropin-esm.html');
  expect(r).toEqual({
    sameApi: true,
    viaPerf: { seen: SEEN, instantiations: 1 },
    viaEsm: { seen: SEEN, instantiations: 1 },
  });
});

test('ES module first, drop-in script added later: the drop-in uses the module', async ({ page }) => {
  const r = await open(page, '/e2e/pages/one-core/esm-dropin.html');
  expect(r).toEqual({ sameApi: true, exchange: { seen: SEEN, instantiations: 1 } });
});

test("webprof/perf alone loads the probes' own core; webprof imported later adds the page's, one probes state", async ({
  page,
}) => {
  const r = await open(page, '/e2e/pages/one-core/perf-alone.html');
  expect(r.alone).toEqual({ seen: SEEN, instantiations: 1, wasm: ['/dist/webprof-probes.wasm'] });
  // A later module graph cannot change what already loaded: the full API
  // gets its own instance, the probes keep theirs (the reporter set through
  // webprof sees what webprof/perf recorded). The Profiler's stop() then
  // fetches the tools module (the exporters: js/core/tools.mjs).
  expect(r.later).toEqual({
    seen: SEEN,
    instantiations: 2,
    wasm: ['/dist/webprof-probes.wasm', '/dist/webprof-core.wasm', '/dist/webprof-tools.wasm'],
    profilerSamples: true,
  });
});
