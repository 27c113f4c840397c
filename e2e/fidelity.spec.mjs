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
  const doc = page.url();
  const script = new URL('/build/e2e/fidelity/workload.mjs', doc).href;
  const expected = [
    { name: 'decl', resource: script, line: 12, column: 14 },
    { name: 'inlineOuter', resource: doc, line: 6, column: 23 },
    { name: 'inlineMiddle', resource: doc, line: 7, column: 26 },
    { name: 'inlineInner', resource: doc, line: 8, column: 27 },
  ];
  // Sampling is statistical: profile again (up to 4 times) until each backend
  // has caught every expected function once; frames are collected per backend.
  const seen = { native: [], polyfill: [] };
  const has = (frames, e) => frames.some((f) => JSON.stringify(f) === JSON.stringify(e));
  const complete = () => ['native', 'polyfill'].every((k) => expected.every((e) => has(seen[k], e)));
  for (let attempt = 0; attempt < 4 && !complete(); attempt++) {
    const { native, polyfill } = await page.evaluate(() => window.sideBySide(2));
    seen.native.push(...framesOf(native));
    seen.polyfill.push(...framesOf(polyfill));
  }
  for (const frames of [seen.native, seen.polyfill]) {
    for (const e of expected) expect(frames).toContainEqual(e);
  }
});
