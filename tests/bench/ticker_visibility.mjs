// Which form of the inserted check sees a Worker's ticks inside an optimized
// loop without calls (tests/bench/ticker_race/visibility.html, no webprof):
// per browser (Chromium 156, Firefox ESR; the page cross-origin isolated) and
// per form — counter: `--f[0]<0`, the Worker storing -1 into f[0] (emitted
// before the threshold slot); atomicSub/atomicLoad: the same with Atomics;
// loadOnly: `f[0]<0`, no store; threshold: `--f[0]<f[1]`, the Worker raising
// f[1] (emitted now) — the ticks its checks took (seen) of those that came
// during its calls (seen + still pending when a call returned), and the
// loop's time per call over the loop without checks (`none`). Printed only
// (docs/BENCHMARKS.md "The threshold slot").
//   node tests/bench/ticker_visibility.mjs [runs = 2] [ms = 1500]
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';

const runs = Number(process.argv[2] || 2);
const ms = Number(process.argv[3] || 1500);
const server = await startStaticServer({ port: 0 });
const url = `http://127.0.0.1:${server.address().port}/tests/bench/ticker_race/visibility.html?coi`;

async function measure(name, page) {
  await page.goto(url);
  for (let r = 0; r < runs; r++) {
    const { out, isolated } = await page.evaluate((ms) => window.experiment(ms), ms);
    if (!isolated) throw new Error(`${name}: the page is not cross-origin isolated`);
    const row = Object.entries(out)
      .filter(([k]) => k !== 'none')
      .map(([k, v]) => `${k} ${v.seen}/${v.seen + v.missed} ×${(v.msPerCall / out.none.msPerCall).toFixed(2)}`);
    console.log(`${name} run ${r + 1}: ${row.join(', ')}`);
  }
}

try {
  const c = await chromium.launch(chromiumLaunchOptions());
  await measure('Chromium', await c.newPage()).finally(() => c.close());
  const f = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.WEBPROF_FIREFOX || '/usr/lib/firefox-esr/firefox-esr',
    headless: true,
  });
  await measure('Firefox ESR', await f.newPage()).finally(() => f.close());
} finally {
  server.close();
}
