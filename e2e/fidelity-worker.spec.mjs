// The polyfill in dedicated workers (classic and module): a worker profiles
// itself and returns a valid trace whose frames carry definition positions.
import { test, expect } from '@playwright/test';
import { buildTransformed, checkWorkerTrace } from './fidelity-helpers.mjs';

test.beforeAll(async () => {
  await buildTransformed('split.mjs');
});

test('a module worker profiles itself', async ({ page }) => {
  await page.goto('/e2e/pages/fidelity/worker.html');
  const data = await page.evaluate(() => window.runWorker('module'));
  const frames = checkWorkerTrace('module', data);
  const script = new URL('/build/e2e/fidelity/split.mjs', page.url()).href;
  // Definition positions (the `(` of each function), not execution points.
  expect(frames).toContainEqual({ name: 'partA', resource: script, line: 3, column: 22 });
  expect(frames).toContainEqual({ name: 'runSplit', resource: script, line: 28, column: 25 });
  expect(data.trace.samples.length).toBeGreaterThan(20);
});

test('a classic worker profiles itself', async ({ page }) => {
  await page.goto('/e2e/pages/fidelity/worker.html');
  const data = await page.evaluate(() => window.runWorker('classic'));
  const frames = checkWorkerTrace('classic', data);
  const script = new URL('/e2e/pages/fidelity/worker-classic.js', page.url()).href;
  expect(frames).toContainEqual({ name: 'classicWork', resource: script, line: 10, column: 21 });
});
