// Polyfill vs Chromium's native Profiler on the same page and workload
// (served with Document-Policy: js-profiling): frame identity, the WPT
// line/column cases.
import { test, expect } from '@playwright/test';
import { buildTransformed, compareFrames, framesOf } from './fidelity-helpers.mjs';

test.beforeAll(async () => {
  await buildTransformed('workload.mjs');
});

test('polyfill frames equal native frames (name, resource, line, column)', async ({ page }) => {
  await page.goto('/e2e/pages/fidelity/side.html?policy=js-profiling');
  await page.waitForFunction(() => window.pageReady);
  const { native, polyfill, backend } = await page.evaluate(() => window.sideBySide(3));
  expect(backend).toBe('polyfill');
  const cmp = compareFrames(native, polyfill);
  for (const r of cmp.rows.filter((x) => !x.match))
    console.log('mismatch', JSON.stringify(r.native), '<->', JSON.stringify(r.polyfill));
  console.log(
    `frame match rate: ${cmp.matched}/${cmp.total} = ${(100 * cmp.rate).toFixed(1)}% ` +
      `(native frames ${native.frames.length}, polyfill frames ${polyfill.frames.length}, ` +
      `polyfill samples ${polyfill.samples.length})`,
  );
  expect(cmp.total).toBeGreaterThanOrEqual(30);
  expect(cmp.rate).toBeGreaterThanOrEqual(0.95);
});

test('WPT line/column: external function and nested inline functions', async ({ page }) => {
  await page.goto('/e2e/pages/fidelity/side.html?policy=js-profiling');
  await page.waitForFunction(() => window.pageReady);
  const { native, polyfill } = await page.evaluate(() => window.sideBySide(2));
  const doc = page.url();
  const script = new URL('/build/e2e/fidelity/workload.mjs', doc).href;
  const expected = [
    { name: 'decl', resource: script, line: 12, column: 14 },
    { name: 'inlineOuter', resource: doc, line: 6, column: 23 },
    { name: 'inlineMiddle', resource: doc, line: 7, column: 26 },
    { name: 'inlineInner', resource: doc, line: 8, column: 27 },
  ];
  for (const trace of [native, polyfill]) {
    const frames = framesOf(trace);
    for (const e of expected) expect(frames).toContainEqual(e);
  }
});
