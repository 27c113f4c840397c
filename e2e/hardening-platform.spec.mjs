// Pages that patch the platform after webprof loads (issue 18, item 1): the
// real zone.js from npm, loaded after webprof as an Angular app loads it.
// webprof's task wrappers must chain to zone's patches (promises settle, no
// "incompatible receiver", callbacks run in their zone), and come out again
// when no session runs.
import { test as base, expect } from '@playwright/test';
import { withWebprof } from 'webprof/playwright';

function collectErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // (A missing favicon is not the page's fault.)
  page.on(
    'console',
    (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && errors.push(m.text()),
  );
  return errors;
}

// The methods zone.js patched, to see whether webprof's are still on top.
const IDENTITIES = `(() => {
  const nativeThen = Object.getPrototypeOf((async () => {})()).then;
  return [setTimeout, setInterval, requestAnimationFrame, queueMicrotask, Promise.prototype.then, nativeThen,
    EventTarget.prototype.addEventListener, EventTarget.prototype.removeEventListener];
})()`;

base(
  'zone.js loaded after webprof: sessions started after it chain to its patches and leave nothing behind',
  async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/e2e/pages/hardening/zone.html');
    const r = await page.evaluate(async (IDENTITIES) => {
      const before = eval(IDENTITIES);
      const runs = [];
      for (let round = 0; round < 2; round++) {
        const p = new Profiler({ sampleInterval: 1, maxBufferSize: 100000, backend: 'polyfill' });
        const out = await zoneWork();
        const trace = await p.stop();
        const after = eval(IDENTITIES);
        runs.push({ out, samples: trace.samples.length, restored: after.map((f, i) => f === before[i]) });
      }
      // With no session: the page's own methods, and zone's work still right.
      const idle = await zoneWork();
      return { runs, idle, expected: zoneExpected };
    }, IDENTITIES);
    for (const run of r.runs) {
      expect(run.out).toEqual(r.expected);
      expect(run.samples).toBeGreaterThan(10);
      // Timers, rAF, microtask, both thens: taken out. The EventTarget pair stays (transparent).
      expect(run.restored).toEqual([true, true, true, true, true, true, false, false]);
    }
    expect(r.idle).toEqual(r.expected);
    expect(errors).toEqual([]);
  },
);

base(
  'zone.js loaded while a session runs wraps webprof; the chain holds through stop and later sessions',
  async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/e2e/pages/hardening/zone.html?early');
    const r = await page.evaluate(async () => {
      const out1 = await zoneWork();
      const t1 = await early.stop();
      const idle = await zoneWork(); // webprof's wrappers inside zone's: transparent now
      const p = new Profiler({ sampleInterval: 1, maxBufferSize: 100000, backend: 'polyfill' });
      const out2 = await zoneWork();
      const t2 = await p.stop();
      return { out1, idle, out2, s1: t1.samples.length, s2: t2.samples.length, expected: zoneExpected };
    });
    expect(r.out1).toEqual(r.expected);
    expect(r.idle).toEqual(r.expected);
    expect(r.out2).toEqual(r.expected);
    expect(r.s1).toBeGreaterThan(10);
    expect(r.s2).toBeGreaterThan(10);
    expect(errors).toEqual([]);
  },
);

const test = withWebprof(base);

test('through the Playwright fixture (webprof injected first), a zone.js app profiles with promises settling', async ({
  page,
  webprof,
}) => {
  const errors = collectErrors(page);
  await page.goto('/e2e/pages/hardening/zone-app.html');
  let out;
  const result = await webprof.profile(
    async () => {
      out = await page.evaluate(() => zoneWork());
    },
    { sampleInterval: 1 },
  );
  expect(out).toEqual(await page.evaluate(() => zoneExpected));
  expect(result.backend).toBe('polyfill');
  expect(result.trace.samples.length).toBeGreaterThan(10);
  // And again once the fixture's session is over.
  expect(await page.evaluate(() => zoneWork())).toEqual(await page.evaluate(() => zoneExpected));
  expect(errors).toEqual([]);
});
