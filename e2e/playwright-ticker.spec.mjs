// The fixture's polyfill time-faithful: withWebprof starts Chromium with
// shared memory allowed (no page change), so the dense checks run in ticker
// mode and a function whose time is one JSON.parse call gets its share,
// beside one whose per-character loop is a check per character
// (e2e/pages/record/mixed.js); the result says which mode ran.
// `webprofTicker: false`: e2e/playwright-ticker-off.spec.mjs.
import { test as base, expect } from '@playwright/test';
import { withWebprof } from 'webprof/playwright';
import { mixedRuns } from './ticker-helpers.mjs';

const test = withWebprof(base);

test('the fixture samples in ticker mode: a JSON.parse stretch gets its share of the time', async ({
  page,
  webprof,
}) => {
  await page.goto('/e2e/pages/record/mixed.html');
  // Nothing about the page changed: not isolated, shared memory all the same.
  expect(await page.evaluate(() => [globalThis.crossOriginIsolated, typeof SharedArrayBuffer])).toEqual([
    false,
    'function',
  ]);
  const best = await mixedRuns(page, webprof, 'ticker');
  expect(best.result.denseMode).toBe('ticker');
  expect(best.result.summaryText).toMatch(/sampler: webprof polyfill \(ticker mode\), every 1 ms/);
  expect(best.sampled.samples).toBeGreaterThan(50);
  expect(best.error).toBeLessThan(0.15);
});
