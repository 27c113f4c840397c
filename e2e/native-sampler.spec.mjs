// Chromium's native sampler asked for through profile(): honoured where the
// document allows it (profile() serves later documents with the policy),
// refused with a clear error where it cannot be (the sampler is settled
// when a document loads), and followed across a navigation inside profile().
import { test, expect } from '@playwright/test';
import { gunzipSync } from 'node:zlib';
import { profile } from 'webprof/playwright';

test('{native: true} after the page loaded without the policy is refused, saying when to ask', async ({
  page,
}) => {
  await page.goto('/e2e/pages/record/hot-inline.html');
  const err = await profile(page, () => page.waitForTimeout(100), { native: true }).catch((e) => e);
  expect(err).toBeInstanceOf(Error);
  expect(err.message).toMatch(/native Profiler, which this document does not allow/);
  expect(err.message).toMatch(/before page\.goto\(\), or navigate inside profile\(\)/);
});

// The function with the most samples in and under it. Not the top self row:
// Chromium's native trace shows the loop's performance.now() calls as a
// `now` frame of their own, 35–50 % self beside hotInline's own time, and
// which of the two leads swings with the machine's load.
const hottest = (summary) => [...summary.top].sort((a, b) => b.total - a.total)[0].name;

test('asked before the first page.goto(), native runs, also across a navigation inside profile()', async ({
  page,
}) => {
  // Asked on the blank page a new tab starts on: the profile starts with
  // the first document, which is served with the policy.
  const first = await profile(
    page,
    () => page.goto('/e2e/pages/record/hot-inline.html').then(() => page.waitForTimeout(500)),
    {
      native: true,
      sampleInterval: 10,
    },
  );
  expect(first.backend).toBe('native');
  expect(hottest(first.summary)).toBe('hotInline');
  const ok = await profile(page, () => page.waitForTimeout(700), { native: true, sampleInterval: 10 });
  expect(ok.backend).toBe('native');
  expect(ok.sampleInterval).toBe(10);
  expect(ok.summaryText).toMatch(/sampler: Chromium native, every 10 ms/);
  expect(hottest(ok.summary)).toBe('hotInline');
  // Chromium sampled webprof's Wasm core (a data: URL) too: none of its
  // frames, nor V8's JS<->Wasm bridges, reach any file.
  for (const [name, buf] of Object.entries(ok.files)) {
    const bytes = name.endsWith('.gz') ? gunzipSync(new Uint8Array(buf)) : Buffer.from(buf);
    const text = bytes.toString('latin1');
    for (const own of ['data:', 'wasm-function', 'js-to-wasm', 'wasm-to-js', '__webprof'])
      expect(text.includes(own), `${name} holds ${own}`).toBe(false);
    expect(buf.byteLength, name).toBeLessThan(200_000);
  }
  // A navigation inside profile(): both documents, one trace (e2e/navigation.spec.mjs).
  // The first document runs 300 ms of it: navigating at once left hotInline a
  // sample or two on a loaded CI machine, below the summary's top rows.
  const nav = await profile(
    page,
    () =>
      page
        .waitForTimeout(300)
        .then(() => page.goto('/e2e/pages/record/untouched.html'))
        .then(() => page.waitForTimeout(700)),
    { native: true },
  );
  expect(nav.documents.map((d) => new URL(d.url).pathname)).toEqual([
    '/e2e/pages/record/hot-inline.html',
    '/e2e/pages/record/untouched.html',
  ]);
  const names = nav.summary.top.map((r) => r.name);
  expect(names).toContain('hotInline');
  expect(names).toContain('shuffleAndSortUntouched');
});

test('{native: true, sampleInterval: 0.1}: below the native floor, Chromium DevTools sampler', async ({
  page,
}) => {
  await page.goto('/e2e/pages/record/hot-inline.html');
  const fine = await profile(page, () => page.waitForTimeout(1500), { native: true, sampleInterval: 0.1 });
  expect(fine.backend).toBe('devtools');
  expect(fine.sampleInterval).toBe(0.1);
  expect(fine.summaryText).toMatch(/sampler: Chromium DevTools, every 0\.1 ms/);
  expect(fine.summary.top[0].name).toBe('hotInline');
  expect(fine.summary.top[0].selfPercent).toBeGreaterThanOrEqual(40);
  expect(fine.trace.samples.length).toBeGreaterThan(1000);
  for (const [name, buf] of Object.entries(fine.files)) {
    const bytes = name.endsWith('.gz') ? gunzipSync(new Uint8Array(buf)) : Buffer.from(buf);
    const text = bytes.toString('latin1');
    for (const own of ['data:', 'wasm-function', 'js-to-wasm', 'wasm-to-js', '__webprof'])
      expect(text.includes(own), `${name} holds ${own}`).toBe(false);
  }
});
