// withWebprof's opt-out: `webprofTicker: false` launches Chromium as
// configured (no shared memory), the polyfill's checks stay in counter mode
// and the result says so (ticker mode: e2e/playwright-ticker.spec.mjs).
import { test as base, expect } from '@playwright/test';
import { withWebprof } from 'webprof/playwright';
import { mixedRuns } from './ticker-helpers.mjs';

const test = withWebprof(base);
test.use({ webprofTicker: false });

test('webprofTicker: false keeps counter mode, and the result says so', async ({ page, webprof }) => {
  await page.goto('/e2e/pages/record/mixed.html');
  expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe('undefined');
  const best = await mixedRuns(page, webprof, 'counter');
  expect(best.result.denseMode).toBe('counter');
  expect(best.result.summaryText).toMatch(/sampler: webprof polyfill \(counter mode\), every 1 ms/);
  expect(best.sampled.samples).toBeGreaterThan(50);
});
