// CORS muted-ness decided when webprof first sees a script, from state the
// page cannot rewrite later (issue 18, item 7): after
// performance.clearResourceTimings() and a `crossorigin` attribute added to
// the loaded no-cors <script> elements, the hidden scripts stay hidden — in
// the W3C Profiler on both backends and in RuntimeProfiler.
import { test, expect } from '@playwright/test';

// The page's rewrite of the evidence, after the scripts loaded.
async function tamper(page) {
  await page.evaluate(() => {
    performance.clearResourceTimings();
    for (const s of document.scripts)
      if (/muted-lib|redirect/.test(s.src)) s.setAttribute('crossorigin', 'anonymous');
  });
}

const HIDDEN = ['mutedWork', 'redirectedWork'];
// The hidden scripts' URLs (the cross-origin cors-lib.js is visible).
const leaks = (resources) => resources.filter((u) => /muted-lib|redirected-lib|\/redirect/.test(u));

for (const b of [
  { name: 'polyfill', path: '/e2e/pages/profiler/index.html', ms: 15 },
  { name: 'native', path: '/e2e/pages/profiler/index.html?policy=js-profiling&backend=native', ms: 60 },
]) {
  test(`${b.name}: clearResourceTimings and a crossorigin attribute added later unmute nothing`, async ({
    page,
  }) => {
    await page.goto(b.path);
    await page.waitForFunction(() => window.pageReady === true);
    await tamper(page);
    const r = await page.evaluate(
      ({ ms, HIDDEN }) =>
        window.profile(
          () =>
            new Promise((done) => {
              for (const fn of HIDDEN) setTimeout(window[fn], 0, ms * 4);
              // Visible work too, so the trace is not empty for other reasons.
              setTimeout(() => window.corsWork(ms * 2), 0);
              setTimeout(done, ms * 10 + 40);
            }),
        ),
      { ms: b.ms, HIDDEN },
    );
    expect(r.backend).toBe(b.name);
    const names = r.trace.frames.map((f) => f.name);
    for (const fn of HIDDEN) expect(names).not.toContain(fn);
    expect(leaks(r.trace.resources)).toEqual([]);
  });
}

test('RuntimeProfiler: the tampered no-cors scripts stay out of results()', async ({ page }) => {
  await page.goto('/e2e/pages/profiler/index.html');
  await page.waitForFunction(() => window.pageReady === true);
  await tamper(page);
  const tree = await page.evaluate(async (HIDDEN) => {
    const rp = new webprof.RuntimeProfiler();
    rp.start(undefined, 1000);
    for (let round = 0; round < 4; round++)
      await new Promise((done) => {
        for (const fn of HIDDEN) setTimeout(window[fn], 0, 30);
        setTimeout(() => window.corsWork(20), 0);
        setTimeout(done, 100);
      });
    rp.stop();
    return rp.results();
  }, HIDDEN);
  const files = new Set();
  const names = new Set();
  const walk = (n) => {
    if (n.function) {
      names.add(n.function.name);
      if (n.function.file) files.add(n.function.file);
    }
    n.children.forEach(walk);
  };
  walk(tree);
  expect(tree.samples).toBeGreaterThan(0);
  expect(names.has('corsWork')).toBe(true); // visible cross-origin code is still there
  for (const fn of HIDDEN) expect(names.has(fn)).toBe(false);
  expect(leaks([...files])).toEqual([]);
});
