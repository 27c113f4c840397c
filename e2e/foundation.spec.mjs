// The two ways a page loads webprof, each building a trace through the core.
import { test, expect } from '@playwright/test';

test('drop-in <script> defines one global and builds a trace', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/e2e/pages/dropin.html');
  const trace = await page.evaluate(() => window.result);
  expect(trace.resources).toEqual([page.url()]);
  expect(trace.frames).toEqual([{ name: 'inline', resourceId: 0, line: 7, column: 3 }]);
  expect(trace.stacks).toEqual([{ frameId: 0 }]);
  expect(trace.samples).toHaveLength(2);
  expect(trace.samples[0].stackId).toBe(0);
  expect(trace.samples[1].stackId).toBeUndefined();
  const added = await page.evaluate(() => {
    const probe = document.createElement('iframe');
    document.body.appendChild(probe);
    const pristine = new Set(Object.keys(probe.contentWindow));
    // Index keys ('0') are the probe iframe itself.
    return Object.keys(window).filter((k) => !pristine.has(k) && k !== 'result' && !/^\d+$/.test(k));
  });
  expect(added).toEqual(['webprof']);
  expect(errors).toEqual([]);
});

test('ES module import builds a trace', async ({ page }) => {
  await page.goto('/e2e/pages/esm.html');
  const trace = await page
    .waitForFunction(() => window.result)
    .then(() => page.evaluate(() => window.result));
  expect(trace.resources).toEqual([page.url()]);
  expect(trace.stacks).toEqual([{ frameId: 0 }, { frameId: 1, parentId: 0 }]);
  expect(trace.samples).toHaveLength(1);
  expect(trace.samples[0].stackId).toBe(1);
});
