// Third-party accuracy in Firefox ESR: the same transformed npm-library
// bundle (tests/bench/accuracy/bundle.mjs) profiled by Chromium's native
// Profiler at 10 ms (the reference, twice: its run-to-run error is the noise
// floor) and by the polyfill at 1 ms in Firefox ESR (SpiderMonkey, through
// puppeteer-core over WebDriver BiDi; Firefox's clock moves in 1 ms steps),
// twice: the page as it is (counter mode) and served cross-origin isolated
// (ticker mode); one server for all: top-15 exact matches, self and
// inclusive share errors, spacing.
// Nothing is asserted.
//   node tests/bench/firefox_accuracy_bench.mjs [profile ms = 3000] [libs… = all four]
import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';
import { bundle } from './accuracy/bundle.mjs';
import { compareShares, spacing } from './accuracy/metrics.mjs';

const FIREFOX = process.env.WEBPROF_FIREFOX || '/usr/lib/firefox-esr/firefox-esr';
const profileMs = Number(process.argv[2] || 3000);
const only = process.argv.slice(3);
const libs = ['marked', 'acorn', 'prettier', 'lodash'].filter((l) => !only.length || only.includes(l));
const f1 = (x) => x.toFixed(1);

const server = await startStaticServer({ port: 0 });
const page = (lib, query = '') =>
  `http://127.0.0.1:${server.address().port}/tests/bench/accuracy/page.html?lib=${lib}${query}`;
try {
  for (const lib of libs) {
    await bundle(lib);
    const browser = await chromium.launch(chromiumLaunchOptions());
    let nativeA, nativeB;
    try {
      const p = await browser.newPage();
      await p.goto(page(lib, '&policy=js-profiling'));
      await p.waitForFunction(() => window.pageReady === true, null, { timeout: 60_000 });
      await p.evaluate((o) => window.init(o), { warmMs: 1000 });
      const native = { backend: 'native', interval: 10, ms: profileMs };
      nativeA = await p.evaluate((o) => window.profile(o), native);
      nativeB = await p.evaluate((o) => window.profile(o), native);
    } finally {
      await browser.close();
    }
    const ff = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
    const runs = {};
    try {
      // Counter mode (the page as it is) and ticker mode (the page served
      // cross-origin isolated, `?coi`: the SharedArrayBuffer ticker).
      for (const [mode, query] of [
        ['counter', ''],
        ['ticker', '&coi'],
      ]) {
        const p = await ff.newPage();
        await p.goto(page(lib, query));
        await p.waitForFunction(() => window.pageReady === true, { timeout: 60_000 });
        await p.evaluate((o) => window.init(o), { warmMs: 1000 });
        // A first session starts the ticker (its Worker starts while the page idles).
        await p.evaluate((o) => window.profile(o), { backend: 'polyfill', interval: 1, ms: 100 });
        await new Promise((r) => setTimeout(r, 300));
        runs[mode] = await p.evaluate((o) => window.profile(o), { backend: 'polyfill', interval: 1, ms: profileMs });
        await p.close();
      }
    } finally {
      await ff.close();
    }
    const floor = compareShares(nativeA.trace, nativeB.trace);
    console.log(`\n${lib}: samples Chromium native@10 ${nativeA.trace.samples.length}`);
    console.log(
      `  native run-to-run self max ${f1(floor.self.max)}, inclusive max ${f1(floor.inclusive.max)}`,
    );
    for (const [label, poly] of Object.entries(runs)) {
      const cmp = compareShares(nativeA.trace, poly.trace);
      const sp = spacing(poly.trace, poly.t0, poly.t1);
      console.log(
        `  Firefox polyfill@1, ${label} page: ran in ${poly.mode.mode} mode, ${poly.trace.samples.length} samples, ` +
          `native's top-15 found exactly ${cmp.top15.matched}/${cmp.top15.of}`,
      );
      console.log(
        `    self error (pp) max ${f1(cmp.self.max)} mean ${f1(cmp.self.mean)}, inclusive max ${f1(cmp.inclusive.max)} ` +
          `mean ${f1(cmp.inclusive.mean)}; spacing p50/p90/p99 ms ${f1(sp.p50)}/${f1(sp.p90)}/${f1(sp.p99)}`,
      );
      console.log(
        `    worst self: ${cmp.worst.map((w) => `${w.name || '(anonymous)'} ${f1(w.native)}% vs ${f1(w.poly)}%`).join(', ')}`,
      );
    }
  }
} finally {
  server.close();
}
