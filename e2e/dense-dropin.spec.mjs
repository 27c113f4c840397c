// Dense sampling with no build step: the drop-in script with data-dense
// registers dist/webprof-sw.js, which rewrites the page's scripts as they
// are fetched; the first visit says a reload is needed, the reload samples
// inside the page's synchronous code. The same pages in Firefox ESR:
// e2e/firefox/nobuild.test.mjs.
import { test, expect } from '@playwright/test';
import { pageProfile, workerProfile } from './nobuild-helpers.mjs';
import { mixedProfile, mixedShares } from './ticker-helpers.mjs';

test('the README drop-in with data-dense samples inside a 100 ms synchronous spin once the worker is active', async ({
  page,
  baseURL,
}) => {
  const console = [];
  page.on('console', (m) => console.push(`${m.type()}: ${m.text()}`));
  await page.goto('/e2e/pages/dense/spin.html');
  // First visit: not rewritten, and the page is told so once the worker is active.
  expect(await page.evaluate(() => webprof.denseReady)).toBe(false);
  expect(console.some((l) => /reload the page to sample inside synchronous code/.test(l))).toBe(true);
  // (This load is sampled only where the spin calls performance.now():
  // e2e/platform-sites.spec.mjs.)

  await page.reload();
  const r = await page.evaluate(pageProfile, ['doWork']);
  expect(r.denseReady).toBe(true);
  // Nearly every sample is inside the spin (95-98 % here). How many there
  // are depends on the CPU the page's thread gets: 45-49 per 100 ms on a
  // quiet machine, 3-26 when it is descheduled for 20-40 ms at a time (two
  // cores shared by many browsers). The share is the criterion; the count
  // only has to show samples inside (none without the worker or the clock
  // sample points). The same holds for every count in these tests.
  expect(r.inside).toBeGreaterThanOrEqual(2);
  expect(r.inside / r.samples).toBeGreaterThanOrEqual(0.5);
  // One frame, at the function's definition in the original document (the
  // `(`, as Chromium's own Profiler reports it).
  expect(r.frames).toEqual([{ resource: `${baseURL}/e2e/pages/dense/spin.html`, line: 12, column: 18 }]);
  // (The browser's own 404 for /favicon.ico is not webprof's.)
  expect(console.filter((l) => l.startsWith('error') && !/favicon|404/.test(l))).toEqual([]);
});

test('an inline 40 ms hot loop is sampled inside on the first visit (clock reads) and, rewritten, after a reload', async ({
  page,
  baseURL,
}) => {
  const url = '/e2e/pages/dense/hot-inline.html';
  for (const dense of [false, true]) {
    if (dense) await page.reload();
    else await page.goto(url);
    await page.waitForFunction(() => window.pageReady === true);
    const r = await page.evaluate(pageProfile, ['hotInline', 500]);
    expect(r.denseReady).toBe(dense);
    expect(r.backend).toBe('polyfill');
    expect(r.inside).toBeGreaterThanOrEqual(2);
    expect(r.inside / r.samples).toBeGreaterThanOrEqual(0.5);
    expect(r.frames).toEqual([{ resource: `${baseURL}${url}`, line: 11, column: 21 }]);
  }
});

// The isolated page's first visit (returned: [denseReady, crossOriginIsolated])
// and its reload through the service worker; `logs` collects the page's
// console and errors.
async function reloadIsolated(page) {
  const logs = [];
  page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  await page.goto('/e2e/pages/dense/isolated.html');
  const first = await page.evaluate(async () => [await webprof.denseReady, crossOriginIsolated]);
  await page.reload();
  expect(await page.evaluate(() => webprof.denseReady)).toBe(true);
  return { logs, first };
}

// data-dense-isolate: the service worker serves the page with COOP
// same-origin + COEP credentialless, so the reload may share memory with a
// Worker and its checks run in ticker mode: a function whose time is one
// JSON.parse call gets its share beside a per-character loop (counter mode
// gives it almost none: e2e/playwright-ticker.spec.mjs). A same-origin
// frame, a worker and a cross-origin image without CORP keep working.
test('data-dense-isolate: the reload is cross-origin isolated and samples in ticker mode, time-faithful', async ({
  page,
  baseURL,
}) => {
  const { logs, first } = await reloadIsolated(page);
  expect(first).toEqual([false, false]);
  let best = null;
  for (let attempt = 0; attempt < 3 && !(best && Math.abs(best.parse - best.truth) <= 0.1); attempt++) {
    const r = await page.evaluate(mixedProfile, [1500, mixedShares.toString()]);
    console.log(`isolated drop-in run ${attempt + 1}: ${JSON.stringify(r)}`);
    if (!best || Math.abs(r.parse - r.truth) < Math.abs(best.parse - best.truth)) best = r;
  }
  expect(best).toMatchObject({ isolated: true, mode: 'ticker' });
  expect(best.samples).toBeGreaterThan(50);
  expect(Math.abs(best.parse - best.truth)).toBeLessThan(0.1);
  expect(await page.evaluate(() => window.frameLoaded)).toBe(true);
  const second = new URL(baseURL);
  second.port = String(Number(second.port) + 1);
  const image = new URL('/e2e/pages/record/dot.svg', second).href;
  expect(await page.evaluate((src) => window.loadImage(src), image)).toBe('loaded');
  const w = await page.evaluate(workerProfile, 'hotWorker');
  expect(w.rewritten).toBe(true);
  expect(w.inside).toBeGreaterThanOrEqual(2);
  expect(logs.filter((l) => /^(error|pageerror)/.test(l) && !/favicon|404/.test(l))).toEqual([]);
});

// A browser stops a service worker idle for 30 s; the one it starts for the
// next request reads what the stopped one decided (js/service-worker/sw.mjs
// "State"). Here DevTools stops it at once: a rewritten script still reads
// rewritten, the isolated page's later worker still gets its COEP and its
// rewrite, and a page script added later is still rewritten.
test('data-dense-isolate: after the service worker was stopped, a new worker and a new script are rewritten', async ({
  page,
  baseURL,
}) => {
  const { logs } = await reloadIsolated(page);
  // What the page reads of a rewritten script (as the frame resolver does).
  const text = () => page.evaluate(async () => (await fetch('/e2e/pages/record/mixed.js')).text());
  const rewritten = await text();
  expect(rewritten).toContain('__wp$f');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  // The new service worker serves the same text, from the transform's cache.
  expect(await text()).toBe(rewritten);
  const w = await page.evaluate(workerProfile, 'hotWorker');
  expect(w.rewritten).toBe(true);
  expect(w.inside).toBeGreaterThanOrEqual(2);
  expect(w.frames).toEqual([{ resource: `${baseURL}/e2e/pages/dense/worker.js`, line: 1, column: 19 }]);
  // A script the page adds now: rewritten (it reads __wp$f) as before the stop.
  await cdp.send('ServiceWorker.stopAllWorkers');
  const late = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const s = document.createElement('script');
        s.src = '/e2e/pages/dense/late.js';
        s.onload = () => resolve(window.lateRewritten);
        s.onerror = () => resolve('not loaded');
        document.head.append(s);
      }),
  );
  expect(late).toBe(true);
  expect(logs.filter((l) => /^(error|pageerror)/.test(l) && !/favicon|404/.test(l))).toEqual([]);
});
