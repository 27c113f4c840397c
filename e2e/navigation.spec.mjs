// A profile that outlives its document: profile(), the fixture's profile()
// and its whole-test profile, around actions that navigate. Two pages, each
// with its own hot function; the result is one trace spanning both
// documents on one time base (ms from the first document's time origin),
// with the polyfill (dense, the fixture's default) and Chromium's native
// sampler, and no file holds a frame of webprof.
import { test as base, expect } from '@playwright/test';
import { gunzipSync } from 'node:zlib';
import { withWebprof, profile } from 'webprof/playwright';

const test = withWebprof(base);
const FIRST = '/e2e/pages/record/nav-first.html';

// Leaf function -> samples of a W3C trace.
function leaves(trace) {
  const count = new Map();
  for (const s of trace.samples) {
    if (s.stackId === undefined) continue;
    const name = trace.frames[trace.stacks[s.stackId].frameId].name;
    count.set(name, (count.get(name) || 0) + 1);
  }
  return count;
}

function expectBothDocuments(result) {
  const count = leaves(result.trace);
  expect(count.get('hotInFirstDocument') || 0, JSON.stringify([...count])).toBeGreaterThanOrEqual(5);
  expect(count.get('hotInSecondDocument') || 0, JSON.stringify([...count])).toBeGreaterThanOrEqual(5);
  expect(result.documents.map((d) => new URL(d.url).pathname)).toEqual([
    FIRST,
    '/e2e/pages/record/nav-second.html',
  ]);
  expect(result.documents[0].offset).toBe(0);
  expect(result.documents[1].offset).toBeGreaterThan(300);
  // One time base: the second document's samples follow the first's.
  const times = result.trace.samples.map((s) => s.timestamp);
  expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true);
  const lastFirst = Math.max(
    ...result.trace.samples
      .filter((s) => s.stackId !== undefined)
      .filter(
        (s) => result.trace.frames[result.trace.stacks[s.stackId].frameId].name === 'hotInFirstDocument',
      )
      .map((s) => s.timestamp),
  );
  expect(lastFirst).toBeLessThan(result.documents[1].offset + 1);
  expect(result.summaryText).toMatch(/documents \(2\), one time base/);
  expect(result.summaryText).toMatch(/hotInFirstDocument/);
  expect(result.summaryText).toMatch(/hotInSecondDocument/);
  for (const [name, buf] of Object.entries(result.files)) {
    const bytes = name.endsWith('.gz') ? gunzipSync(new Uint8Array(buf)) : Buffer.from(buf);
    const text = bytes.toString('latin1');
    for (const own of ['data:', 'wasm-function', 'js-to-wasm', 'wasm-to-js', '__webprof', '__wp$'])
      expect(text.includes(own), `${name} holds ${own}`).toBe(false);
    if (name !== 'summary.txt') expect(text.includes('hotInSecondDocument'), name).toBe(true);
  }
}

const navigate = (page) => async () => {
  await page.waitForTimeout(600);
  await page.click('#next');
  await page.waitForURL('**/nav-second.html');
  await page.waitForTimeout(600);
};

test('polyfill: the fixture profile() around a link click covers both documents', async ({
  page,
  webprof,
}) => {
  await page.goto(FIRST);
  const result = await webprof.profile(navigate(page), { sampleInterval: 1 });
  expect(result.backend).toBe('polyfill');
  expectBothDocuments(result);
});

test('native: profile() from a new tab through page.goto() and a link click covers both documents', async ({
  page,
}) => {
  // Asked on the blank page: the profile starts with the first document.
  const result = await profile(
    page,
    async () => {
      await page.goto(FIRST);
      await navigate(page)();
    },
    { native: true, sampleInterval: 10 },
  );
  expect(result.backend).toBe('native');
  expect(result.summaryText).toMatch(/sampler: Chromium native, every 10 ms/);
  expectBothDocuments(result);
});

test.describe('the whole-test profile', () => {
  test.use({ webprofProfile: { sampleInterval: 1 } });
  test('covers every document the test shows', async ({ page, webprof }) => {
    await page.goto(FIRST);
    await navigate(page)();
    const result = await webprof.stop();
    expectBothDocuments(result);
  });
});

test('a profile stopped before the navigation does not follow it', async ({ page }) => {
  await page.goto(FIRST);
  const once = await profile(page, () => page.waitForTimeout(300), { sampleInterval: 1 });
  expect(once.documents).toEqual([]);
  await page.click('#next');
  await page.waitForURL('**/nav-second.html');
  const running = await page.evaluate(() => !!globalThis.__webprof__?.__session);
  expect(running).toBe(false);
});
