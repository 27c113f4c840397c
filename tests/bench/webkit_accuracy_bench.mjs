// Third-party accuracy in WebKit: the same transformed npm-library bundle
// (tests/bench/accuracy/bundle.mjs) profiled by the polyfill at 1 ms in
// Chromium (Playwright, the reference) and in WebKit (JavaScriptCore, through
// js/node/webkit.mjs), one page each, same server: how many of Chromium's
// top-10 self-time frames WebKit's profile reports (name, resource, line,
// column), and the self-share errors over both sides' top-10, beside
// Chromium's own run-to-run error. Nothing is asserted.
//   node tests/bench/webkit_accuracy_bench.mjs [profile ms = 3000] [libs… = marked]
import { chromium } from 'playwright-core';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';
import { launchWebKit } from '../../js/node/webkit.mjs';
import { bundle } from './accuracy/bundle.mjs';
import { compareShares, shares } from './accuracy/metrics.mjs';

const profileMs = Number(process.argv[2] || 3000);
const libs = process.argv.slice(3).length ? process.argv.slice(3) : ['marked'];
const f1 = (x) => x.toFixed(1);

const server = await startStaticServer({ port: 0 });
const page = (lib) => `http://127.0.0.1:${server.address().port}/tests/bench/accuracy/page.html?lib=${lib}`;
const opts = { backend: 'polyfill', interval: 1, ms: profileMs };
try {
  for (const lib of libs) {
    await bundle(lib);
    const browser = await chromium.launch(chromiumLaunchOptions());
    let chromeA, chromeB;
    try {
      const p = await browser.newPage();
      await p.goto(page(lib));
      await p.waitForFunction(() => window.pageReady === true, null, { timeout: 60_000 });
      await p.evaluate((o) => window.init(o), { warmMs: 1000 });
      chromeA = await p.evaluate((o) => window.profile(o), opts);
      chromeB = await p.evaluate((o) => window.profile(o), opts);
    } finally {
      await browser.close();
    }
    const wk = await launchWebKit();
    let webkit;
    try {
      await wk.url(page(lib));
      await wk.waitFor(() => window.pageReady === true, { timeout: 60_000 });
      await wk.execute((o) => window.init(o), { warmMs: 1000 });
      webkit = await wk.execute((o) => window.profile(o), opts);
    } finally {
      await wk.close();
    }
    const floor = compareShares(chromeA.trace, chromeB.trace, { k: 10 });
    const cmp = compareShares(chromeA.trace, webkit.trace, { k: 10 });
    const topNames = (t) =>
      [...shares(t).self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([k, v]) => `${k.split('\u0000')[0] || '(anonymous)'} ${f1(v)}%`);
    console.log(
      `\n${lib}: samples Chromium ${chromeA.trace.samples.length}, WebKit ${webkit.trace.samples.length} ` +
        `(polyfill@1ms, ${profileMs} ms each)`,
    );
    console.log(
      `  Chromium's top-10 self frames found exactly in WebKit: ${cmp.top15.matched}/${cmp.top15.of}`,
    );
    console.log(
      `  self share error (pp) WebKit vs Chromium max ${f1(cmp.self.max)} mean ${f1(cmp.self.mean)} | ` +
        `Chromium run-to-run max ${f1(floor.self.max)} mean ${f1(floor.self.mean)}`,
    );
    console.log(`  Chromium top-10: ${topNames(chromeA.trace).join(', ')}`);
    console.log(`  WebKit   top-10: ${topNames(webkit.trace).join(', ')}`);
  }
} finally {
  server.close();
}
