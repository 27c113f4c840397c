// `node js/tools/bench-probes.mjs`: the probes' in-browser benchmark in
// Debian's Chromium (demo/bench/probes.html). Prints ns per call and ratios
// against baselines measured in the same run, and the heap before/after 10
// million recorded aggr pairs. Needs `npm run build` (the Wasm core). Prints
// only: no pass/fail on timings.
import { chromium } from '@playwright/test';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunch } from '../../playwright.config.mjs';

const server = await startStaticServer({ port: 0 });
const { port } = server.address();
const browser = await chromium.launch(chromiumLaunch);
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${port}/demo/bench/probes.html`);
  await page.waitForFunction(() => window.benchReady === true);
  const r = await page.evaluate(() => window.runBench(7));
  const ns = r.ns;
  const f = (x) => x.toFixed(2);
  console.log(`Chromium ${browser.version()}, ${r.N} iterations per loop, median of ${r.reps}`);
  console.log(`empty loop                     ${f(ns.empty)} ns/iter`);
  console.log(`2 x performance.now()          ${f(ns.now2)} ns/iter   (baseline)`);
  console.log(
    `aggr pair, recording           ${f(ns.aggrPair)} ns/pair  ratio ${f(ns.aggrPair / ns.now2)}x (target <= 1.2x)`,
  );
  console.log(
    `aggrStart, not recording       ${f(ns.notRecording - ns.empty)} ns/call (loop overhead removed; target <= 2)`,
  );
  console.log(`aggr pair, name mode           ${f(ns.namePair)} ns/pair  ratio ${f(ns.namePair / ns.now2)}x`);
  console.log(
    `trace pair                     ${f(ns.tracePair)} ns/pair  ratio ${f(ns.tracePair / ns.now2)}x`,
  );
  console.log(`1 x performance.now()          ${f(ns.now1)} ns/iter`);
  console.log(
    `mark                           ${f(ns.mark)} ns/mark  ratio to 1 clock read ${f(ns.mark / ns.now1)}x`,
  );

  const cdp = await page.context().newCDPSession(page);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return { js: usedSize, wasm: await page.evaluate(() => window.wasmBytes()) };
  };
  await page.evaluate(() => window.heapStart());
  await page.evaluate(() => window.heapPairs(1_000_000)); // warm-up inside the window
  const before = await heap();
  for (let i = 0; i < 10; i++) await page.evaluate(() => window.heapPairs(1_000_000));
  const after = await heap();
  const count = await page.evaluate(() => window.heapEnd());
  console.log(
    `heap over 10M recorded aggr pairs (count ${count}): JS ${before.js} -> ${after.js} bytes ` +
      `(${after.js - before.js >= 0 ? '+' : ''}${after.js - before.js}), Wasm memory ${before.wasm} -> ${after.wasm} bytes`,
  );
} finally {
  await browser.close();
  server.close();
}
