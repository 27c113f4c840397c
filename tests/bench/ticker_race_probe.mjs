// Why ticker mode over-attributed check-free stretches, measured without
// webprof (tests/bench/ticker_race/): a Worker ticks once per ms as webprof's
// ticker does, the page runs e2e/pages/record/mixed.js's scan() (a check per
// character) and parse() (one JSON.parse, no check inside) as the transform
// rewrites them, and logs every check that saw a tick; each tick's time is
// logged by the Worker. Per browser (Chromium 156, page cross-origin isolated;
// Firefox ESR 153, the same), per ticker write (counter: the Worker stores
// -1 into the counter only, as webprof's did before the threshold slot, so
// the checks behave as `--__wp$f[0]<0`; threshold: it raises the threshold
// the checks compare with, as now) and per ticker (one store per tick;
// restore: the Worker stores again when the page's decrement overwrote it):
//  - where ticks fell (scan or parse, by the page's own phase times) against
//    the check that took them: "scan->parse" = a tick during scan() taken by
//    parse()'s exit check, i.e. its store was lost in scan()'s loop;
//  - parse()'s share of the samples: one per check (the ticker before) and
//    one per tick (now), against its timed share;
//  - lateness (check time - tick time) p50/p99 and tick spacing.
// Printed only (docs/BENCHMARKS.md "Ticker mode: one sample per tick", "The
// threshold slot").
//   node tests/bench/ticker_race_probe.mjs [runs = 2] [ms = 1500]
import { inBothBrowsers } from './ticker_race/browsers.mjs';

const runs = Number(process.argv[2] || 2);
const ms = Number(process.argv[3] || 1500);
// What the Worker writes at a tick: the counter only (webprof's ticker before
// the threshold slot), or the threshold too (now).
const FORMS = ['counter', 'threshold'];
const q = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};
const f2 = (x) => x.toFixed(2);
const SITES = { 8: 'scan', 10: 'scan', 13: 'parse' };
// How long after a store the Worker looks whether the page overwrote it (ms;
// 0: it does not look, one store per tick as before).
const LOOKS = [0, 0.125];

function analyse(d) {
  const ph = d.phases;
  let pi = 0;
  const phaseOf = (t) => {
    while (pi + 3 < ph.length && ph[pi + 2] <= t) pi += 3;
    if (t >= ph[pi] && t < ph[pi + 1]) return 'scan';
    if (t >= ph[pi + 1] && t < ph[pi + 2]) return 'parse';
    return 'other';
  };
  const tickPhase = d.tickTimes.map(phaseOf);
  const perCheck = { scan: 0, parse: 0 };
  const perTick = { scan: 0, parse: 0 };
  const moved = {};
  const late = [];
  const lateScan = []; // a single tick taken by scan()'s checks: ~ how far the two clocks disagree
  let prev = d.c0;
  for (let i = 0; i < d.checks.length; i += 3) {
    const [t, c, line] = [d.checks[i], d.checks[i + 1], d.checks[i + 2]];
    const n = c - prev;
    if (n <= 0) continue;
    const site = SITES[line] || 'other';
    if (site !== 'other') {
      perCheck[site]++;
      perTick[site] += n;
    }
    for (let k = prev; k < c; k++) {
      const at = k - d.c0;
      if (at >= d.tickTimes.length) continue;
      late.push(t - d.tickTimes[at]);
      if (site === 'scan' && n === 1) lateScan.push(t - d.tickTimes[at]);
      const key = `${tickPhase[at]}->${site}`;
      moved[key] = (moved[key] || 0) + 1;
    }
    prev = c;
  }
  const gaps = d.tickTimes.slice(1).map((t, i) => t - d.tickTimes[i]);
  const share = (x) => x.parse / (x.scan + x.parse);
  const inScan = (moved['scan->scan'] || 0) + (moved['scan->parse'] || 0);
  return (
    `truth ${f2(d.truth.parse / (d.truth.scan + d.truth.parse))}, ticks ${d.tickTimes.length}; ` +
    `parse share one per check ${f2(share(perCheck))}, one per tick ${f2(share(perTick))}; ` +
    `ticks in scan() taken in parse() ${moved['scan->parse'] || 0} of ${inScan}; ` +
    `lateness p50/p99 ${f2(q(late, 0.5))}/${f2(q(late, 0.99))} (one tick taken in scan(): min/p50 ` +
    `${q(lateScan, 0).toFixed(3)}/${q(lateScan, 0.5).toFixed(3)}); tick spacing p50/p99 ${f2(q(gaps, 0.5))}/${f2(q(gaps, 0.99))}`
  );
}

async function measure(name, page, url) {
  await page.goto(url);
  for (const form of FORMS) {
    for (const restore of LOOKS)
      for (let r = 0; r < runs; r++) {
        const d = await page.evaluate(
          ([restore, raise, ms]) => window.experiment(restore, raise, ms),
          [restore, form === 'threshold', ms],
        );
        if (!d.isolated) throw new Error(`${name}: the page is not cross-origin isolated`);
        const how = restore ? `stores again after ${restore} ms` : 'one store';
        console.log(`${name}, ${form} check, ${how}, run ${r + 1}: ${analyse(d)}`);
      }
  }
}

await inBothBrowsers('tests/bench/ticker_race/page.html', measure);
