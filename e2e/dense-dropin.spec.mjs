// Dense sampling with no build step: the drop-in script with data-dense
// registers dist/webprof-sw.js, which rewrites the page's scripts as they
// are fetched; the first visit says a reload is needed, the reload samples
// inside the page's synchronous code.
import { test, expect } from '@playwright/test';

const PAGE = '/e2e/pages/dense/spin.html';

function samplesIn(trace, name) {
  return trace.samples.filter((s) => {
    for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
      if (trace.frames[trace.stacks[id].frameId].name === name) return true;
    return false;
  }).length;
}

test('the README drop-in with data-dense samples inside a 100 ms synchronous spin once the worker is active', async ({
  page,
}) => {
  const console = [];
  page.on('console', (m) => console.push(`${m.type()}: ${m.text()}`));
  await page.goto(PAGE);
  // First visit: not rewritten, and the page is told so once the worker is active.
  expect(await page.evaluate(() => webprof.denseReady)).toBe(false);
  expect(console.some((l) => /reload the page to sample inside synchronous code/.test(l))).toBe(true);
  // (This load is sampled only where the spin calls performance.now():
  // e2e/platform-sites.spec.mjs.)

  await page.reload();
  expect(await page.evaluate(() => webprof.denseReady)).toBe(true);
  const trace = await page.evaluate(() => window.result);
  const inSpin = samplesIn(trace, 'doWork');
  // Without the worker none of them is inside it (above). The core is still
  // loading while the page runs, so these samples keep their stack text
  // until it is ready (20-36 per 100 ms here; native: 52-60): at least half
  // of the samples are inside the spin.
  expect(inSpin).toBeGreaterThanOrEqual(10);
  expect(inSpin / trace.samples.length).toBeGreaterThanOrEqual(0.5);
  // The frame points at the document's own line.
  const doWork = trace.frames.find((f) => f.name === 'doWork');
  expect(trace.resources[doWork.resourceId]).toMatch(/\/spin\.html$/);
  expect(doWork.line).toBe(12);
  // (The browser's own 404 for /favicon.ico is not webprof's.)
  expect(console.filter((l) => l.startsWith('error') && !/favicon|404/.test(l))).toEqual([]);
});
