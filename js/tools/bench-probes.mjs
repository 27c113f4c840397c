// `node js/tools/bench-probes.mjs` (npm run bench:probes): the probes'
// in-browser benchmark in Debian's Chromium (demo/bench/probes.html), run on
// the source ES modules and on an esbuild bundle of the same loops. Prints ns
// per call and ratios against baselines measured in the same run, and the heap
// before/after 10 million recorded aggr pairs. Needs the Wasm core
// (`npm run build`). Prints only: timings never fail anything.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium } from '@playwright/test';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunch } from '../../playwright.config.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
await esbuild.build({
  entryPoints: [join(root, 'demo/bench/probes-bench.mjs')],
  outfile: join(root, 'build/bench/probes-bench.mjs'),
  bundle: true,
  minify: true,
  format: 'esm',
  logLevel: 'warning',
});

const server = await startStaticServer({ port: 0 });
const { port } = server.address();
const browser = await chromium.launch(chromiumLaunch);
const f = (x) => x.toFixed(2);

async function run(query, withHeap) {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${port}/demo/bench/probes.html${query}`);
  await page.waitForFunction(() => window.benchReady === true);
  const r = await page.evaluate(() => window.runBench(7));
  const ns = r.ns;
  console.log(
    `\n${query ? 'esbuild bundle (minified)' : 'source ES modules'}: ${r.N} iterations per loop, median of ${r.reps}`,
  );
  console.log(`2 x performance.now()          ${f(ns.now2)} ns   (baseline)`);
  console.log(
    `aggr pair, recording           ${f(ns.aggrPair)} ns   ratio ${f(ns.aggrPair / ns.now2)}x (target <= 1.2x)`,
  );
  console.log(`aggr pair, name mode           ${f(ns.namePair)} ns   ratio ${f(ns.namePair / ns.now2)}x`);
  console.log(`trace pair                     ${f(ns.tracePair)} ns   ratio ${f(ns.tracePair / ns.now2)}x`);
  console.log(`1 x performance.now()          ${f(ns.now1)} ns`);
  console.log(
    `mark                           ${f(ns.mark)} ns   ratio to 1 clock read ${f(ns.mark / ns.now1)}x`,
  );
  console.log(`empty loop                     ${f(ns.empty)} ns/iter`);
  console.log(
    `aggrStart, not recording       ${f(ns.notRecording - ns.empty)} ns/call over the empty loop (target <= 2)`,
  );
  console.log(`  same, via a const alias      ${f(ns.notRecordingConst - ns.empty)} ns/call`);
  console.log(`plain JS call returning -1     ${f(ns.plainCall - ns.empty)} ns/call (inlined: the floor)`);
  if (withHeap) {
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
    const d = after.js - before.js;
    console.log(
      `heap over 10M recorded aggr pairs (window count ${count}): JS ${before.js} -> ${after.js} bytes ` +
        `(${d >= 0 ? '+' : ''}${d}), Wasm memory ${before.wasm} -> ${after.wasm} bytes`,
    );
  }
  await page.close();
}

try {
  console.log(`Chromium ${browser.version()}`);
  await run('', true);
  await run('?bundle=1', false);
} finally {
  await browser.close();
  server.close();
}
