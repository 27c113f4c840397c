// How regular the ticker Worker's ticks are (ticker mode, js/profiler/dense.mjs):
// a 1 ms Profiler in Chromium started with shared memory allowed, the page's
// thread busy for 900 ms, then the gaps between consecutive tick times in the
// ring. A thread the OS runs late used to leave gaps; the ticks it missed are
// now written at their due times (sampler.mjs passedDueTimes). Nothing is asserted.
//   node tests/bench/ticker_gaps.mjs [runs = 3] [busy processes beside it = 0]
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunchOptions, SHARED_MEMORY_ARG } from '../../js/node/chromium.mjs';

const runs = Number(process.argv[2] || 3);
const busy = Array.from({ length: Number(process.argv[3] || 0) }, () =>
  spawn(process.execPath, ['-e', 'let x = 0; for (;;) x += Math.sqrt(x)'], { stdio: 'ignore' }),
);
const server = await startStaticServer({ port: 0 });
const browser = await chromium.launch(chromiumLaunchOptions({ extraArgs: [SHARED_MEMORY_ARG] }));
try {
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/e2e/pages/esm.html`);
    const r = await page.evaluate(async () => {
      const w = await import('/dist/webprof.mjs');
      await w.ready;
      const p = new w.Profiler({ sampleInterval: 1, maxBufferSize: 1e6 });
      await new Promise((done) => setTimeout(done, 300)); // the Worker starts while the page idles
      const c0 = Atomics.load(w.__wp$f, 4);
      const end = performance.now() + 900;
      let x = 0;
      while (performance.now() < end) x += Math.sqrt(x + 1);
      const c1 = Atomics.load(w.__wp$f, 4);
      await p.stop();
      const ring = new Float64Array(w.__wp$f.buffer, 32, 1024); // dense.mjs RING, from byte 32
      const t = [];
      for (let c = c0; c < c1; c++) t.push(ring[c & 1023]);
      const gaps = t
        .slice(1)
        .map((v, k) => v - t[k])
        .sort((a, b) => a - b);
      const q = (f) => gaps[Math.floor(f * (gaps.length - 1))];
      return {
        mode: w.denseMode().mode,
        ticks: c1 - c0,
        p50: q(0.5),
        p99: q(0.99),
        max: gaps[gaps.length - 1],
      };
    });
    const f = (v) => v.toFixed(1);
    console.log(
      `${r.mode}: ${r.ticks} ticks in 900 ms; gap p50 ${f(r.p50)} ms, p99 ${f(r.p99)} ms, max ${f(r.max)} ms`,
    );
    await page.close();
  }
} finally {
  for (const b of busy) b.kill();
  await browser.close();
  server.close();
}
