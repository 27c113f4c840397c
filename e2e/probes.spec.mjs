// The explicit and built-in framework probes in Chromium, through dist/.
import { test, expect } from '@playwright/test';

test('framework and user probes record a window in Chromium', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/e2e/pages/probes.html');
  await page.waitForFunction(() => window.pageReady === true);
  // A DOM click, not page.click(): Playwright's own hit-test listeners would
  // count too.
  await page.evaluate(() => document.getElementById('b').click());
  const r = await page.evaluate(() => window.finish());
  expect(errors).toEqual([]);
  // >= 1: the page's listener, plus any click listener the harness adds.
  expect(r.aggregates['event:click'].count).toBeGreaterThanOrEqual(1);
  expect(r.aggregates['event:click'].max).toBeGreaterThanOrEqual(70);
  expect(r.aggregates['task:timeout'].count).toBeGreaterThanOrEqual(1);
  // The page's own rAF plus any other frame callback in the window.
  expect(r.aggregates['task:raf'].count).toBeGreaterThanOrEqual(1);
  expect(r.aggregates['user:compute'].count).toBe(1);
  expect(r.aggregates.longtask.count).toBeGreaterThanOrEqual(1);
  const p99 = r.aggregates['event:click'].p99;
  expect(Math.abs(p99 - r.aggregates['event:click'].max)).toBeLessThanOrEqual(
    r.aggregates['event:click'].max / 128,
  );
  expect(r.marks[0]).toEqual(['start', null]);
  expect(r.marks[1]).toEqual(['page:start', { route: '/e2e/pages/probes.html' }]);
  expect(r.marks.at(-1)).toEqual(['end', null]);
  const click = r.traces.find((t) => t[0] === 'click:work');
  expect(click[1]).toEqual({ kind: 'busy' });
  expect(r.traces.some((t) => t[0] === 'longtask')).toBe(true);
});
