// Fidelity on a known time split and the overhead of dense sampling, in
// Chromium, same-run ratios. Timed figures are printed; the assertions are
// generous bounds only (docs/BENCHMARKS.md holds the measured figures).
import { test, expect } from '@playwright/test';
import { buildTransformed, selfShares } from './fidelity-helpers.mjs';

test.beforeAll(async () => {
  await buildTransformed('split.mjs');
  await buildTransformed('calls.mjs');
});

const NAMES = ['partA', 'partB', 'partC'];
const pct = (x) => (100 * x).toFixed(1);
const fmt = (o) => JSON.stringify(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, +v.toFixed(1)])));

// The truth is wall time measured in the page; on a loaded machine a
// descheduled thread adds wall time no sampler can see. Up to three runs,
// each printed; the best one is asserted (generously).
async function splitRuns(page, label) {
  let best = { worst: Infinity };
  for (let attempt = 0; attempt < 3 && best.worst > 0.05; attempt++) {
    const { truth, trace, nativeTrace, mode } = await page.evaluate(() =>
      window.split({ interval: 1, rounds: 60, ms: [5, 3, 2] }),
    );
    const total = truth.partA + truth.partB + truth.partC;
    const shares = selfShares(trace, NAMES);
    const nativeShares = nativeTrace ? selfShares(nativeTrace, NAMES) : null;
    let worst = 0;
    for (const n of NAMES) worst = Math.max(worst, Math.abs(shares[n] - truth[n] / total));
    console.log(
      `${label} run ${attempt + 1}: ` +
        NAMES.map(
          (n) =>
            `${n} truth ${pct(truth[n] / total)}% polyfill@1ms ${pct(shares[n])}%` +
            (nativeShares ? ` native@10ms ${pct(nativeShares[n])}%` : ''),
        ).join('; ') +
        ` | worst ${pct(worst)} pp, ${trace.samples.length} samples, round ${(total / 60).toFixed(1)} ms`,
    );
    if (worst < best.worst) best = { worst, trace, mode };
  }
  return best;
}

test('self-time shares at 1 ms follow the true split', async ({ page }) => {
  await page.goto('/e2e/pages/fidelity/bench.html?policy=js-profiling');
  await page.waitForFunction(() => window.pageReady);
  const best = await splitRuns(page, 'counter mode');
  expect(best.trace.samples.length).toBeGreaterThan(150);
  expect(best.worst).toBeLessThan(0.2);
});

test('cross-origin isolated: a Worker ticks the shared flag, shares still follow the split', async ({
  page,
}) => {
  await page.goto('/e2e/pages/fidelity/bench.html?coi&policy=js-profiling');
  await page.waitForFunction(() => window.pageReady);
  expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
  // A first session starts the ticker (a worker cannot start while the page
  // is busy; counter mode meanwhile); the measured runs have it ticking.
  await page.evaluate(() => window.split({ interval: 1, rounds: 5, ms: [5, 3, 2] }));
  await page.waitForTimeout(200);
  const best = await splitRuns(page, 'SAB ticker');
  expect(best.mode).toMatchObject({ shared: true, ticker: true, ticking: true });
  expect(best.trace.samples.length).toBeGreaterThan(150);
  expect(best.worst).toBeLessThan(0.2);
});

// A benchmark, not a test: it runs under `npm run bench` (WEBPROF_BENCH=1)
// and prints its ratios; nothing timed is asserted.
test('overhead: transformed call-heavy workload under the polyfill and native', async ({ page }) => {
  test.skip(!process.env.WEBPROF_BENCH, 'benchmark: npm run bench');
  test.setTimeout(120_000);
  await page.goto('/e2e/pages/fidelity/bench.html?policy=js-profiling');
  await page.waitForFunction(() => window.pageReady);
  const r = await page.evaluate(() => window.overhead({ reps: 11, n: 30, repeat: 5 }));
  console.log(`5 x fib(30) = ${r.calls} calls; min ms ${fmt(r.ms)}; median ms ${fmt(r.medianMs)}`);
  console.log(
    `slowdown vs unprofiled transformed: polyfill@1ms ${r.polyfill1.toFixed(3)}x  polyfill@10ms ${r.polyfill10.toFixed(3)}x  native@10ms ${r.native10.toFixed(3)}x (native on plain: ${r.nativePlain10.toFixed(3)}x)`,
  );
  console.log(`probe-site check when nothing is due: ${r.checkNs.toFixed(2)} ns/site`);
  console.log(`polyfill@1ms: ${r.samples1} samples in its last run`);
  expect(r.samples1).toBeGreaterThan(0);
});

// A benchmark, not a test (WEBPROF_BENCH=1): the 10 ms target (≤ 1.005×) is
// below the drift between configurations run seconds apart, so unprofiled and
// profiled runs alternate in adjacent pairs; the median pair ratio and its
// quartiles are printed, with the native Profiler measured the same way.
test('overhead at 10 ms, paired runs: polyfill and native', async ({ page }) => {
  test.skip(!process.env.WEBPROF_BENCH, 'benchmark: npm run bench');
  test.setTimeout(300_000);
  await page.goto('/e2e/pages/fidelity/bench.html?policy=js-profiling');
  await page.waitForFunction(() => window.pageReady);
  const run = (make, interval) =>
    page.evaluate((o) => window.overheadPairs(o), { pairs: 60, n: 30, repeat: 10, interval, make });
  const line = (what, r) =>
    `${what}: median pair ratio ${r.median.toFixed(4)}x (quartiles ${r.q1.toFixed(4)}–${r.q3.toFixed(4)}, ` +
    `${r.pairs} pairs, ${r.samplesPerRun.toFixed(1)} samples per run)`;
  const poly10 = await run('poly', 10);
  const native10 = await run('native', 10);
  const poly1 = await run('poly', 1);
  console.log(line('polyfill@10ms', poly10));
  console.log(line('native@10ms  ', native10));
  console.log(line('polyfill@1ms ', poly1));
  expect(poly10.samplesPerRun).toBeGreaterThan(0);
});

// A benchmark, not a test (WEBPROF_BENCH=1): where one polyfill sample's time
// goes at the overhead workload's depth — what the page pays at the sample
// (capture + wp_profiler_defer) and what is paid later (format, encode,
// parse). Printed only.
test('sample cost: capture now, format and parse later', async ({ page }) => {
  test.skip(!process.env.WEBPROF_BENCH, 'benchmark: npm run bench');
  await page.goto('/e2e/pages/fidelity/sample-cost.html');
  await page.waitForFunction(() => window.pageReady);
  const r = await page.evaluate(() => window.sampleCost({ reps: 7, n: 200 }));
  const us = (x) => x.toFixed(1);
  console.log(
    `µs per sample at ${r.frames} frames (medians): capture ${us(r.capture)}, format ${us(r.format)}, ` +
      `encode ${us(r.encode)}, parse ${us(r.parse)} = ${us(r.capture + r.format + r.encode + r.parse)} eager; ` +
      `deferred: ${us(r.deferredInPage)} at the sample + ${us(r.deferredLater)} later`,
  );
  expect(r.frames).toBeGreaterThan(20);
});
