// Third-party accuracy: the polyfill against Chromium's native Profiler on
// real npm libraries nobody here wrote (tests/bench/accuracy/*.mjs; exact
// versions pinned in package-lock.json). Each library is bundled by esbuild
// and the bundle put through the sampling transform; native and polyfill
// profile that same transformed file in one page, so every frame both see
// has the same name, resource, line and column.
//
// Printed per library (same run, native as the reference):
//  - top-15: how many of native's 15 highest self-time frames the polyfill
//    reports exactly (name, resource, line, column);
//  - the mode the polyfill's checks ran in (counter: the default browser;
//    ticker: a browser started with shared memory allowed, as `webprof
//    record` and the fixture start it);
//  - self / inclusive share error (percentage points) over the union of
//    both sides' top-15 frames, max and mean — beside native's own
//    run-to-run error (two native profiles), the noise floor;
//  - the same errors against V8's own CPU profiler at 1 ms (DevTools
//    protocol; two profiles give its floor), and each native profile's share
//    of samples without a stack;
//  - sample spacing p50/p90/p99 (ms) of the polyfill at 1 and 10 ms
//    (native at 10 ms for reference);
//  - slowdown, medians of interleaved pairs: transformed vs plain bundle
//    with no profiler (with and without exit checks; before any session in
//    the page and after the profiles, the checks' guard then on), polyfill@1ms
//    and @10ms vs the transformed bundle alone, native@10ms vs the plain
//    bundle alone.
// Nothing is asserted. Expects `npm run build`. WEBPROF_BENCH_RUNTIME: see
// accuracy/bundle.mjs (another build of webprof, for before/after runs).
//   node tests/bench/accuracy_bench.mjs [profile ms = 4000] [pairs = 7] [libs…]
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunchOptions, SHARED_MEMORY_ARG } from '../../js/node/chromium.mjs';
import { compareShares, leafCounts, phaseError, phaseShares, spacing } from './accuracy/metrics.mjs';
import { bundle, RUNTIME } from './accuracy/bundle.mjs';
import { profile as profilePage } from '../../dist/playwright.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LIBS = ['marked', 'acorn', 'prettier', 'lodash'];
const profileMs = Number(process.argv[2] || 4000);
const pairs = Number(process.argv[3] || 7);
const only = process.argv.slice(4);
// Any module of tests/bench/accuracy/ may be named (e.g. `mechanisms`).
const libs = only.length ? only : LIBS;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const f1 = (x) => x.toFixed(1);
// Native's top-15 frames a profile lacks: name:line and native's self share.
const missed = (top15) =>
  top15.missing.length
    ? ` (missing ${top15.missing.map((x) => `${x.name || '(anonymous)'}:${x.line} ${f1(x.native)}%`).join(', ')})`
    : '';
const ratio = (x) => `x${x.toFixed(3)}`;

async function measure(page, tickerBrowser, lib, port) {
  await page.goto(
    `http://127.0.0.1:${port}/tests/bench/accuracy/page.html?lib=${lib}&policy=js-profiling&runtime=${RUNTIME}`,
  );
  await page.waitForFunction(() => window.pageReady === true, null, { timeout: 60_000 });
  const { unitMs } = await page.evaluate((o) => window.init(o), { warmMs: 1500 });
  // Slowdown: each pair runs its two configurations back to back, the order
  // alternating; ~300 ms per timing. The transformed code alone is timed
  // first, before any session in this page turned the checks' guard on
  // (js/profiler/dense.mjs), and again after the profiles (`after`).
  const units = Math.max(1, Math.round(300 / unitMs));
  const timing = (config) => page.evaluate((o) => window.timing(o), { config, units });
  const ratios = {};
  const runPairs = async (PAIRS) => {
    for (const k of Object.keys(PAIRS)) ratios[k] = [];
    for (let i = 0; i < pairs; i++) {
      for (const [k, [base, test]] of Object.entries(PAIRS)) {
        let b, t;
        if (i % 2) {
          t = await timing(test);
          b = await timing(base);
        } else {
          b = await timing(base);
          t = await timing(test);
        }
        ratios[k].push(t / b);
      }
    }
  };
  await runPairs({ transformed: ['plain', 'dense'], lean: ['plain', 'lean'] });
  // V8's own CPU profiler over the DevTools protocol at 1 ms (what
  // webprof/playwright's profile() runs for {native: true} below native's
  // 10 ms floor), twice, on the same transformed bundle with no webprof
  // session: a second engine-native reference, ten times the samples of
  // native's, and one that keeps the samples the Profiler API reports
  // without a stack (RegExp-heavy code: docs/BENCHMARKS.md "Two native
  // references"). Code V8 optimized before its profiler started is not in
  // its code map (tests/bench/native_blind_spots.mjs): after the warm-up
  // that is the timing loop's on-stack replacement, whose frames are the
  // harness's (metrics.mjs HARNESS), so the library's shares stand; its phase
  // shares are checked against the timed phases below all the same.
  const devtools = async () => {
    const units = Math.max(1, Math.round(profileMs / unitMs));
    const run = () => page.evaluate((o) => window.timing(o), { config: 'dense', units });
    return { trace: (await profilePage(page, run, { native: true, sampleInterval: 1 })).trace };
  };
  const v8A = await devtools();
  const v8B = await devtools();
  const profile = (backend, interval) =>
    page.evaluate((o) => window.profile(o), { backend, interval, ms: profileMs });
  const nativeA = await profile('native', 10);
  const poly1 = await profile('polyfill', 1);
  const nativeB = await profile('native', 10);
  const poly10 = await profile('polyfill', 10);
  // Ticker mode as `webprof record` and the Playwright fixture run it: a
  // browser started with shared memory allowed (js/node/chromium.mjs), the
  // page not isolated; the SharedArrayBuffer ticker drives the checks.
  const tick = await tickerBrowser.newPage();
  await tick.goto(`http://127.0.0.1:${port}/tests/bench/accuracy/page.html?lib=${lib}&runtime=${RUNTIME}`);
  await tick.waitForFunction(() => window.pageReady === true, null, { timeout: 60_000 });
  await tick.evaluate((o) => window.init(o), { warmMs: 300 });
  await tick.evaluate((o) => window.profile(o), { backend: 'polyfill', interval: 1, ms: 100 });
  await tick.waitForTimeout(300); // the ticker worker starts while the page idles
  const ticker1 = await tick.evaluate((o) => window.profile(o), {
    backend: 'polyfill',
    interval: 1,
    ms: profileMs,
  });
  // Each phase's wall time while the ticker samples: the checks slow the code
  // they are dense in, so this is the truth the ticker's own shares are held
  // to (its attribution), the no-profiler timing above it (its total error).
  const tickerPhaseMs = await tick.evaluate((o) => window.phases(o), {
    units: Math.max(3, Math.round(1000 / unitMs)),
    backend: 'polyfill',
    interval: 1,
  });
  await tick.close();
  // Ground truth: each named phase's wall time, no profiler, ~1 s of units.
  const phaseMs = await page.evaluate((o) => window.phases(o), {
    units: Math.max(3, Math.round(1000 / unitMs)),
  });
  await runPairs({
    after: ['plain', 'dense'],
    poly1: ['dense', 'dense:polyfill:1'],
    poly10: ['dense', 'dense:polyfill:10'],
    native10: ['plain', 'plain:native:10'],
  });
  return {
    nativeA,
    nativeB,
    poly1,
    poly10,
    ticker1,
    v8A,
    v8B,
    phaseMs,
    tickerPhaseMs,
    unitMs,
    slowdown: Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, median(v)])),
  };
}

// The profilers' phase shares against the phases' timed wall time (the
// ground truth native is not: V8's sampler can misplace time, e.g. inside
// Array.prototype.sort's comparator calls).
function phaseReport(m) {
  const timed = phaseShares(m.phaseMs);
  if (timed.size < 2) return null;
  const shares = { timed: Object.fromEntries(timed) };
  const error = {};
  for (const which of ['nativeA', 'nativeB', 'poly1', 'ticker1', 'v8A']) {
    const of = phaseShares(m[which].trace);
    shares[which] = Object.fromEntries(of);
    error[which] = phaseError(timed, of);
  }
  const underTicker = phaseShares(m.tickerPhaseMs);
  shares.timedUnderTicker = Object.fromEntries(underTicker);
  error.tickerVsTimedUnderTicker = phaseError(underTicker, phaseShares(m.ticker1.trace));
  return { shares, error };
}

const server = await startStaticServer({ port: 0 });
const port = server.address().port;
const browser = await chromium.launch(chromiumLaunchOptions());
const tickerBrowser = await chromium.launch(chromiumLaunchOptions({ extraArgs: [SHARED_MEMORY_ARG] }));
const results = {};
try {
  for (const lib of libs) {
    let sites, m;
    try {
      sites = await bundle(lib);
      const page = await browser.newPage();
      m = await measure(page, tickerBrowser, lib, port);
      await page.close();
    } catch (e) {
      console.log(`\n${lib}: not measured: ${e.message.split('\n')[0]}`);
      results[lib] = { error: e.message };
      continue;
    }
    const floor = compareShares(m.nativeA.trace, m.nativeB.trace);
    const poly = compareShares(m.nativeA.trace, m.poly1.trace);
    const weighted = compareShares(m.nativeA.trace, m.poly1.trace, { weighted: true });
    const ticker = compareShares(m.nativeA.trace, m.ticker1.trace);
    // Against V8's CPU profiler: its own run-to-run floor, then each
    // profile; frames by position (metrics.mjs keyOf: V8 names them
    // otherwise).
    const v8 = Object.fromEntries(
      ['v8B', 'ticker1', 'poly1', 'nativeA'].map((w) => [
        w,
        compareShares(m.v8A.trace, m[w].trace, { names: false }),
      ]),
    );
    const noStack = (p) => {
      const c = leafCounts(p.trace);
      return c.noStack / Math.max(c.samples, 1);
    };
    const sp = (p) => spacing(p.trace, p.t0, p.t1);
    const sp3 = (s) => `${f1(s.p50)}/${f1(s.p90)}/${f1(s.p99)}`;
    // Samples in the profiled stretch: against the ticks the ticker counted
    // there, where the spacing's tails come from (missing ticks or dropped samples).
    const inWindow = (p) => p.trace.samples.filter((x) => x.timestamp >= p.t0 && x.timestamp <= p.t1).length;
    const r = {
      sites,
      unitMs: m.unitMs,
      samples: {
        native: m.nativeA.trace.samples.length,
        poly1: m.poly1.trace.samples.length,
        poly10: m.poly10.trace.samples.length,
      },
      top15: poly.top15,
      candidates: {
        weighted: { self: weighted.self, inclusive: weighted.inclusive },
        ticker: { self: ticker.self, inclusive: ticker.inclusive, top15: ticker.top15, mode: m.ticker1.mode },
      },
      self: { poly: poly.self, native: floor.self },
      inclusive: { poly: poly.inclusive, native: floor.inclusive },
      spacing: { poly1: sp(m.poly1), poly10: sp(m.poly10), native10: sp(m.nativeA) },
      slowdown: m.slowdown,
      phases: phaseReport(m),
      worst: poly.worst,
      mode: m.poly1.mode,
      v8: Object.fromEntries(
        Object.entries(v8).map(([w, c]) => [w, { self: c.self, inclusive: c.inclusive, top15: c.top15 }]),
      ),
      noStack: { nativeA: noStack(m.nativeA), nativeB: noStack(m.nativeB), v8A: noStack(m.v8A) },
    };
    results[lib] = r;
    for (const which of ['nativeA', 'nativeB', 'poly1', 'poly10', 'ticker1', 'v8A', 'v8B'])
      writeFileSync(join(root, `build/bench/accuracy/${lib}.${which}.json`), JSON.stringify(m[which].trace));
    console.log(
      `\n${lib}: ${sites} probe sites, one unit ${f1(m.unitMs)} ms, samples native@10 ${r.samples.native}, ` +
        `polyfill@1 ${r.samples.poly1}, polyfill@10 ${r.samples.poly10}`,
    );
    console.log(
      `  polyfill@1 ran in ${m.poly1.mode.mode} mode; top-15 native self frames matched exactly: ` +
        `${poly.top15.matched}/${poly.top15.of}${missed(poly.top15)}`,
    );
    console.log(
      `  self share error (pp)  polyfill max ${f1(poly.self.max)} mean ${f1(poly.self.mean)} | ` +
        `native run-to-run max ${f1(floor.self.max)} mean ${f1(floor.self.mean)}`,
    );
    console.log(
      `  inclusive error (pp)   polyfill max ${f1(poly.inclusive.max)} mean ${f1(poly.inclusive.mean)} | ` +
        `native run-to-run max ${f1(floor.inclusive.max)} mean ${f1(floor.inclusive.mean)}`,
    );
    const cand = (what, c) =>
      `  ${what}: self max ${f1(c.self.max)} mean ${f1(c.self.mean)}, inclusive max ${f1(c.inclusive.max)} mean ${f1(c.inclusive.mean)}`;
    console.log(cand('time-weighted counter samples', weighted));
    console.log(
      cand(`shared-memory switch, polyfill@1 in ${m.ticker1.mode.mode} mode`, ticker) +
        `, top-15 ${ticker.top15.matched}/${ticker.top15.of}${missed(ticker.top15)}, spacing p50/p90/p99 ${sp3(sp(m.ticker1))}` +
        `, ${inWindow(m.ticker1)} samples of ${m.ticker1.ticks} ticks in ${(m.ticker1.t1 - m.ticker1.t0).toFixed(0)} ms` +
        (m.ticker1.mode.lateness
          ? `, lateness p50/p99 ${m.ticker1.mode.lateness.p50.toFixed(2)}/${m.ticker1.mode.lateness.p99.toFixed(2)}`
          : ''),
    );
    console.log(
      `  worst self: ${poly.worst.map((w) => `${w.name || '(anonymous)'} ${f1(w.native)}% vs ${f1(w.poly)}%`).join(', ')}`,
    );
    console.log(
      `  spacing p50/p90/p99 ms: polyfill@1 ${sp3(r.spacing.poly1)}, polyfill@10 ${sp3(r.spacing.poly10)}, ` +
        `native@10 ${sp3(r.spacing.native10)}`,
    );
    const vs = (c) => `self max ${f1(c.self.max)}, inclusive max ${f1(c.inclusive.max)}`;
    console.log(
      `  against V8's CPU profiler (DevTools, 1 ms; run-to-run ${vs(v8.v8B)}): ticker ${vs(v8.ticker1)}, ` +
        `top-15 ${v8.ticker1.top15.matched}/${v8.ticker1.top15.of}; polyfill@1 ${vs(v8.poly1)}; native@10 ${vs(v8.nativeA)}; ` +
        `samples without a stack: native ${(100 * r.noStack.nativeA).toFixed(0)} / ${(100 * r.noStack.nativeB).toFixed(0)} %, ` +
        `V8's ${(100 * r.noStack.v8A).toFixed(0)} %`,
    );
    if (r.phases) {
      const p = r.phases;
      const shares = (which) =>
        Object.entries(p.shares[which])
          .map(([k, v]) => `${k.slice(7)} ${f1(v)}`)
          .join(' ');
      console.log(
        `  phases, inclusive share vs their timed wall time (${shares('timed')}): max error native ` +
          `${f1(p.error.nativeA)} / ${f1(p.error.nativeB)} (${shares('nativeA')}), polyfill@1 ${f1(p.error.poly1)} ` +
          `(${shares('poly1')}), ticker ${f1(p.error.ticker1)} (${shares('ticker1')}), V8's ${f1(p.error.v8A)} ` +
          `(${shares('v8A')})`,
      );
      console.log(
        `  phases timed while the ticker samples (${shares('timedUnderTicker')}): ticker's max error against ` +
          `them ${f1(p.error.tickerVsTimedUnderTicker)}`,
      );
    }
    const s = m.slowdown;
    console.log(
      `  slowdown (median of ${pairs} pairs): transformed alone ${ratio(s.transformed)} ` +
        `(without exit checks ${ratio(s.lean)}; after the profiles ${ratio(s.after)}), polyfill@1ms ${ratio(s.poly1)}, ` +
        `polyfill@10ms ${ratio(s.poly10)}, native@10ms ${ratio(s.native10)}`,
    );
  }
} finally {
  await browser.close();
  await tickerBrowser.close();
  server.close();
}
writeFileSync(join(root, 'build/bench/accuracy/results.json'), JSON.stringify(results, null, 2));
