// Cost of a wrapped platform call (js/profiler/platform-sites.mjs) in
// Chromium: ns per performance.now() / Date.now() call, unwrapped (before
// the first polyfill Profiler), wrapped with no session running (the
// counter parked) and wrapped while a 1 ms polyfill session samples (the
// samples' own cost included), same page, same run.
//   node tests/bench/platform_sites_bench.mjs [calls]
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';
import { startStaticServer } from '../../e2e/server.mjs';

const calls = Number(process.argv[2] || 2_000_000);
const server = await startStaticServer({ port: 0 });
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/e2e/pages/dropin.html`);
  const r = await page.evaluate(async (n) => {
    await webprof.ready;
    const time = (f) => {
      const best = [];
      for (let k = 0; k < 5; k++) {
        const t0 = performance.now();
        f(n);
        best.push(performance.now() - t0);
      }
      return (Math.min(...best) * 1e6) / n; // ns per call
    };
    const perf = (m) => {
      let x = 0;
      for (let i = 0; i < m; i++) x += performance.now();
      return x;
    };
    const date = (m) => {
      let x = 0;
      for (let i = 0; i < m; i++) x += Date.now();
      return x;
    };
    const out = { unwrapped: [time(perf), time(date)] };
    await new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 1, backend: 'polyfill' }).stop(); // installs
    out.parked = [time(perf), time(date)];
    const p = new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 1e6, backend: 'polyfill' });
    out.sampling = [time(perf), time(date)];
    const t = await p.stop();
    out.samples = t.samples.length;
    return out;
  }, calls);
  console.log(`Chromium ${browser.version()}, ${calls} calls, best of 5, ns per call (ratio to unwrapped)`);
  for (const [i, name] of [
    [0, 'performance.now()'],
    [1, 'Date.now()'],
  ]) {
    const u = r.unwrapped[i];
    console.log(
      `${name.padEnd(18)} unwrapped ${u.toFixed(1)}; wrapped, no session ${r.parked[i].toFixed(1)} (${(r.parked[i] / u).toFixed(2)}x); ` +
        `wrapped, 1 ms session ${r.sampling[i].toFixed(1)} (${(r.sampling[i] / u).toFixed(2)}x)`,
    );
  }
} finally {
  await browser.close();
  server.close();
}
