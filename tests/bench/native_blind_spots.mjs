// Where the native Profiler's samples have no stack: Chromium's JS
// Self-Profiling API (Document-Policy: js-profiling, 10 ms) against V8's own
// CPU profiler behind the DevTools protocol (1 ms, webprof/playwright's
// profile() with {native: true}), on workloads whose time is all in one
// named function (native-blind-spots/workloads.js). Printed per workload and
// profiler: the share of samples whose leaf frame is that function, the
// share with no stack at all, and the rest with the leaf most of it has
// (the loop around it where the function was inlined, V8's garbage
// collector pseudo-frame).
// Why it matters: tests/bench/accuracy_bench.mjs holds the polyfill to the
// native Profiler's shares over its samples with a stack; where the native
// Profiler drops the stack of a sample, the function it fell in loses its
// share (docs/BENCHMARKS.md "Two native references").
// Nothing is asserted. Expects `npm run build`.
//   node tests/bench/native_blind_spots.mjs [ms per profile = 2000]
import { chromium } from 'playwright-core';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';
import { profile } from '../../dist/playwright.mjs';
import { leafCounts } from './accuracy/metrics.mjs';

const ms = Number(process.argv[2] || 2000);
// The leaf function's share, the stackless share, the rest (% of samples).
function where(trace, name) {
  const { samples, noStack, byName } = leafCounts(trace);
  let leaf = 0;
  let most = null;
  for (const [f, count] of byName) {
    if (f.endsWith(name)) leaf += count;
    else if (!most || count > most[1]) most = [f, count];
  }
  const n = Math.max(samples, 1);
  return {
    samples,
    leaf: (100 * leaf) / n,
    none: (100 * noStack) / n,
    rest: (100 * (n - leaf - noStack)) / n,
    most: most ? most[0] : '',
  };
}
const server = await startStaticServer({ port: 0 });
const port = server.address().port;
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const url = `http://127.0.0.1:${port}/tests/bench/native-blind-spots/page.html?policy=js-profiling`;
  const pct = (x) => `${x.toFixed(1)}`.padStart(5);
  console.log(
    `each ${ms} ms; % of samples: in the function / no stack / elsewhere, its most common leaf (samples)`,
  );
  console.log(
    `${'workload'.padEnd(16)} ${'native Profiler, 10 ms'.padEnd(44)} V8's CPU profiler (DevTools), 1 ms`,
  );
  const names = await (async () => {
    const page = await browser.newPage();
    await page.goto(url);
    const n = await page.evaluate(() => window.workloadNames);
    await page.close();
    return n;
  })();
  for (const name of names) {
    // A page per workload, V8's profile first and with no warm-up: code
    // optimized before V8's profiler starts (the loop's on-stack
    // replacement, with the workload inlined) is not in its code map, and
    // its time goes to the nearest frame V8 knows (Playwright's evaluation
    // wrapper) — so V8's profile starts cold, and the native one follows.
    const page = await browser.newPage();
    await page.goto(url);
    const run = () => page.evaluate(([n, t]) => window.runFor(n, t), [name, ms]);
    const v8 = where((await profile(page, run, { native: true, sampleInterval: 1 })).trace, name);
    const native = where(await page.evaluate(([n, t]) => window.nativeProfile(n, t), [name, ms]), name);
    await page.close();
    const row = (w) => `${pct(w.leaf)} / ${pct(w.none)} / ${pct(w.rest)} ${w.most} (${w.samples})`.padEnd(44);
    console.log(`${name.padEnd(16)} ${row(native)} ${row(v8)}`);
  }
} finally {
  await browser.close();
  server.close();
}
