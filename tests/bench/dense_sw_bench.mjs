// Browser benchmark of dense sampling with no build step (dist/webprof-sw.js):
//  1. the transform's throughput in Chromium (the code the service worker
//     runs), against the same run's baseline: compiling the same text with
//     `new Function` (V8's own pre-parse of a script it is given);
//  2. the first-load cost: load time of a page with two library scripts
//     (terser 1.1 MB, webpack's parser 0.3 MB) without data-dense, on the
//     first visit (the worker registers), on the first controlled load
//     (cold cache: every script transformed) and on a reload (warm cache).
//   node tests/bench/dense_sw_bench.mjs [rounds]
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';
import { startStaticServer } from '../../e2e/server.mjs';

const rounds = Number(process.argv[2] || 3);
const FILES = [
  'node_modules/typescript/lib/typescript.js',
  'node_modules/terser/dist/bundle.min.js',
  'node_modules/webpack/lib/javascript/JavascriptParser.js',
];
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const server = await startStaticServer({ port: 0 });
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  console.log(`Chromium ${browser.version()}, median of ${rounds} rounds`);
  const page = await browser.newPage();
  await page.goto(`${base}/e2e/pages/dropin.html`);
  for (const file of FILES) {
    const r = await page.evaluate(
      async ([url, n]) => {
        await webprof.ready;
        const text = await (await fetch(url)).text();
        const t = [];
        const c = [];
        let sites = 0;
        for (let i = 0; i < n; i++) {
          let t0 = performance.now();
          sites = (await webprof.transformForSampling(text, { runtime: null })).sites;
          t.push(performance.now() - t0);
          t0 = performance.now();
          new Function(text + `\n//${i}`); // a new text each round: no code cache
          c.push(performance.now() - t0);
        }
        return { bytes: new TextEncoder().encode(text).length, t, c, sites };
      },
      [`/${file}`, rounds],
    );
    const mb = r.bytes / 1e6;
    const tm = median(r.t);
    const cm = median(r.c);
    console.log(
      `transform ${file.split('/').pop().padEnd(24)} ${mb.toFixed(2)} MB, ${r.sites} sites: ` +
        `${tm.toFixed(1)} ms = ${(mb / (tm / 1000)).toFixed(1)} MB/s; new Function ${cm.toFixed(1)} ms; ratio ${(tm / cm).toFixed(1)}x`,
    );
  }
  await page.close();

  const loadMs = (p) => p.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd);
  const rows = { plain: [], firstVisit: [], cold: [], warm: [] };
  for (let i = 0; i < rounds; i++) {
    const context = await browser.newContext();
    const p = await context.newPage();
    // The first navigation of a context starts its renderer: not measured.
    await p.goto(`${base}/e2e/pages/dense/load-plain.html`);
    await p.reload();
    rows.plain.push(await loadMs(p));
    await p.goto(`${base}/e2e/pages/dense/load.html`);
    rows.firstVisit.push(await loadMs(p));
    if ((await p.evaluate(() => webprof.denseReady)) !== false) throw new Error('first visit was rewritten?');
    await p.reload();
    rows.cold.push(await loadMs(p));
    if ((await p.evaluate(() => webprof.denseReady)) !== true) throw new Error('reload was not rewritten');
    await p.reload();
    rows.warm.push(await loadMs(p));
    await context.close();
  }
  const plain = median(rows.plain);
  for (const [name, v] of Object.entries(rows))
    console.log(
      `load ${name.padEnd(10)} ${median(v).toFixed(0).padStart(5)} ms (${(median(v) / plain).toFixed(2)}x the page without data-dense)`,
    );
} finally {
  await browser.close();
  server.close();
}
