// What a polyfill sample costs at 1 ms, apart from the checks it rides on
// (issue 13: "slowdown at 1 ms ≤ ×1.10"). The accuracy bench's transformed
// bundles (tests/bench/accuracy/) in tests/bench/sample-cost/page.html; per
// library, after one session (the checks' guard no longer folded, as in
// accuracy_bench's pairs), interleaved rounds (order rotating) time the units
// of the transformed bundle with no profiler, under a polyfill Profiler at
// 1000 ms (the checks run and the stride reads the clock, almost no sample)
// and at 1 ms. Only the units are timed: stop(), which formats and parses
// what is still pending, is not. Printed per library: the medians over
// rounds of each timing over the no-profiler one of its round, by CPU time of
// the page's thread (check-cost/renderer-cpu.mjs: wall time on a shared
// machine mostly measures the other processes) and by wall time; "samples"
// = the 1 ms ratio over the 1000 ms one (what the samples add to the
// checks); the CPU a sample costs, (1 ms CPU − 1000 ms CPU) / samples of
// the same round, median — what does not depend on how many samples the
// load let the page take (at 1 kHz, n µs a sample is n/1000 of the page's
// time); samples per 1 ms timing; the load average.
// With --cdp, one more 1 ms timing (3× the units) under V8's own CPU profiler
// (DevTools protocol, 100 µs) prints the top self-time functions — where the
// time goes at 1 kHz (the CDP profiler's own cost included). --ticker: the
// browser started with shared memory allowed (ticker mode, as `webprof
// record` runs it).
//   node tests/bench/sample_cost_bench.mjs [rounds = 7] [ms per timing = 300]
//     [--libs=marked,acorn,prettier,lodash] [--cdp] [--ticker]
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunchOptions, SHARED_MEMORY_ARG } from '../../js/node/chromium.mjs';
import { bundle } from './accuracy/bundle.mjs';
import { rendererOf, threadCpuNs } from './check-cost/renderer-cpu.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : args.includes(`--${name}`) ? true : def;
};
const positional = args.filter((a) => !a.startsWith('--'));
const rounds = Number(positional[0] || 7);
const budget = Number(positional[1] || 300);
const libs = String(opt('libs', 'marked,acorn,prettier,lodash')).split(',');
const cdp = opt('cdp', false);
const ticker = opt('ticker', false);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const INTERVALS = [0, 1000, 1]; // 0: no profiler

async function measure(page, browserPid, lib, port) {
  await page.goto(`http://127.0.0.1:${port}/tests/bench/sample-cost/page.html?lib=${lib}`);
  await page.waitForFunction(() => window.pageReady === true, null, { timeout: 60_000 });
  // After the navigation (a new site may get a new renderer process); on a
  // loaded machine the busiest renderer during a short spin can be another
  // one: the pick must have run most of a 500 ms spin.
  let pid = 0;
  for (let tries = 0; tries < 5 && !pid; tries++) {
    const p = await rendererOf(page, browserPid, 500);
    const c0 = threadCpuNs(p);
    await page.evaluate(() => {
      const end = performance.now() + 200;
      while (performance.now() < end);
    });
    if (threadCpuNs(p) - c0 > 50e6) pid = p;
  }
  if (!pid) throw new Error(`${lib}: the page's renderer process was not found`);
  const { unitMs } = await page.evaluate((o) => window.init(o), { warmMs: 1000 });
  const units = Math.max(1, Math.round(budget / unitMs));
  const timing = async (interval, n = units) => {
    await page.evaluate((o) => window.openProfiler(o), { interval });
    const c0 = threadCpuNs(pid);
    const wall = await page.evaluate((o) => window.runUnits(o), { units: n });
    const cpu = (threadCpuNs(pid) - c0) / 1e6;
    const { samples, mode } = await page.evaluate(() => window.closeProfiler());
    return { cpu, wall, samples, mode };
  };
  // One session first: the guard's fold goes (one deoptimization) and the
  // ticker starts where shared memory allows it.
  await timing(1);
  await page.waitForTimeout(300);
  const ratios = { 1000: { cpu: [], wall: [] }, 1: { cpu: [], wall: [] }, samples: { cpu: [], wall: [] } };
  const counts = [];
  const perSample = []; // µs of the page's CPU a sample adds to the checks' cost
  let mode = '';
  for (let i = 0; i < rounds; i++) {
    const order = [...INTERVALS];
    for (let k = 0; k < i % order.length; k++) order.push(order.shift());
    const t = {};
    for (const ms of order) t[ms] = await timing(ms);
    for (const k of ['cpu', 'wall']) {
      ratios[1000][k].push(t[1000][k] / t[0][k]);
      ratios[1][k].push(t[1][k] / t[0][k]);
      ratios.samples[k].push(t[1][k] / t[1000][k]);
    }
    counts.push(t[1].samples);
    if (t[1].samples > 0) perSample.push((1000 * (t[1].cpu - t[1000].cpu)) / t[1].samples);
    mode = t[1].mode;
  }
  const top = cdp ? [await cdpTop(page, units * 3, 1000), await cdpTop(page, units * 3, 1)] : null;
  return { unitMs, units, ratios, samples: median(counts), perSample: median(perSample), mode, top };
}

// Self time per function under V8's sampler during one 1 ms polyfill timing
// (the units only).
async function cdpTop(page, units, interval) {
  const s = await page.context().newCDPSession(page);
  await s.send('Profiler.enable');
  await s.send('Profiler.setSamplingInterval', { interval: 100 });
  await page.evaluate((o) => window.openProfiler(o), { interval });
  await s.send('Profiler.start');
  await page.evaluate((o) => window.runUnits(o), { units });
  const { profile } = await s.send('Profiler.stop');
  await page.evaluate(() => window.closeProfiler());
  await s.detach();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (const id of profile.samples) {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}`;
    self.set(key, (self.get(key) || 0) + 1);
  }
  const total = profile.samples.length;
  return [`polyfill @${interval} ms, ${total} samples of V8's sampler:`].concat(
    [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([k, n]) => `${((100 * n) / total).toFixed(1).padStart(5)} %  ${k}`),
  );
}

const server = await startStaticServer({ port: 0 });
const port = server.address().port;
const browserServer = await chromium.launchServer(
  chromiumLaunchOptions({ extraArgs: ticker ? [SHARED_MEMORY_ARG] : [] }),
);
const browser = await chromium.connect(browserServer.wsEndpoint());
const x = (xs) => `x${median(xs).toFixed(3)}`;
try {
  for (const lib of libs) {
    await bundle(lib);
    const page = await browser.newPage();
    const load0 = loadavg()[0];
    const m = await measure(page, browserServer.process().pid, lib, port);
    await page.close();
    const r = m.ratios;
    console.log(
      `${lib.padEnd(9)} ${m.mode.padEnd(7)} unit ${m.unitMs.toFixed(1)} ms x${m.units}, ${m.samples} samples` +
        `  cpu: @1000 ${x(r[1000].cpu)} @1 ${x(r[1].cpu)} samples ${x(r.samples.cpu)}` +
        ` (${m.perSample.toFixed(0)} µs a sample)` +
        `  wall: @1000 ${x(r[1000].wall)} @1 ${x(r[1].wall)} samples ${x(r.samples.wall)}` +
        `  load ${load0.toFixed(1)}–${loadavg()[0].toFixed(1)}`,
    );
    if (m.top) for (const part of m.top) for (const l of part) console.log(`    ${l}`);
  }
} finally {
  await browser.close();
  await browserServer.close();
  server.close();
}
