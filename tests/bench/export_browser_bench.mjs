// Browser benchmark: 1M samples -> Chrome trace JSON in Debian's Chromium,
// webprof vs the straightforward JS way, same page, same run. Prints the
// ratio (target >= 2x) and webprof's output rate (target >= 200 MB/s).
//   node tests/bench/export_browser_bench.mjs [samples] [rounds] [settleMs]
// settleMs (default 0): idle time after each forced collection, see the page.
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';
import { startStaticServer } from '../../e2e/server.mjs';

const samples = Number(process.argv[2] || 1_000_000);
const rounds = Number(process.argv[3] || 5);
const settleMs = Number(process.argv[4] || 0);
const server = await startStaticServer({ port: 0 });
const browser = await chromium.launch(chromiumLaunchOptions({ extraArgs: ['--js-flags=--expose-gc'] }));
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/tests/bench/export_browser_bench.html`);
  await page.waitForFunction(() => window.benchReady);
  const r = await page.evaluate(([n, k, ms]) => window.runBench(n, k, ms), [samples, rounds, settleMs]);
  const f = (v) => v.toFixed(1);
  console.log(
    `samples ${r.samples}, median of ${r.rounds} rounds, settle ${settleMs} ms after each gc(), Chromium ${browser.version()}`,
  );
  console.log(
    `webprof, TraceSession  : ${f(r.sessionMs)} ms, ${f(r.sessionMBps)} MB/s, ${r.sessionRatio.toFixed(2)}x faster than JS`,
  );
  console.log(`webprof, W3C object   : ${f(r.webprofMs)} ms, ${f(r.webprofMB)} MB, ${f(r.webprofMBps)} MB/s`);
  console.log(`JS objects+stringify  : ${f(r.jsMs)} ms, ${f(r.jsMB)} MB, ${f(r.jsMBps)} MB/s`);
  for (const p of r.parts)
    console.log(
      `  W3C-object parts: load ${f(p.loadMs)} ms, write ${f(p.writeMs)} ms, copy ${f(p.copyMs)} ms`,
    );
  console.log(
    `ratio (JS / webprof, W3C object input): ${r.ratio.toFixed(2)}x  (targets: >= 2x, >= 200 MB/s)`,
  );
} finally {
  await browser.close();
  server.close();
}
