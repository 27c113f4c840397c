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
import { inBothBrowsers } from './ticker_race/browsers.mjs';

const runs = Number(process.argv[2] || 2);
const ms = Number(process.argv[3] || 1500);

async function measure(name, page, url) {
  await page.goto(url);
  for (let r = 0; r < runs; r++) {
    const { out, isolated } = await page.evaluate((ms) => window.experiment(ms), ms);
    if (!isolated) throw new Error(`${name}: the page is not cross-origin isolated`);
    const row = Object.entries(out)
      .filter(([k]) => k !== 'none')
      .map(
        ([k, v]) => `${k} ${v.seen}/${v.seen + v.missed} ×${(v.msPerCall / out.none.msPerCall).toFixed(2)}`,
      );
    console.log(`${name} run ${r + 1}: ${row.join(', ')}`);
  }
}

await inBothBrowsers('tests/bench/ticker_race/visibility.html', measure);
