// webprof/playwright as a user writes it: the fixture profiles a block of
// actions or a whole test and attaches the files to the report.
import { test as base, expect } from '@playwright/test';
import { withWebprof, profile, grantNativeProfiler } from 'webprof/playwright';

const test = withWebprof(base);

test('profile() around a click finds the hot function and attaches files', async ({
  page,
  webprof,
}, testInfo) => {
  await page.goto('/e2e/pages/record/untouched.html');
  const result = await webprof.profile(
    async () => {
      await page.click('#go');
      await page.waitForSelector('#done');
    },
    { sampleInterval: 1 },
  );
  expect(result.backend).toBe('polyfill');
  const names = result.trace.frames.map((f) => f.name);
  expect(names).toContain('onGoClicked');
  expect(names).toContain('crunchPrimesUntouched');
  expect(result.summary.top.map((r) => r.name)).toContain('crunchPrimesUntouched');
  const attached = testInfo.attachments.map((a) => a.name);
  for (const f of ['trace.json', 'profile.cpuprofile', 'trace.pftrace', 'summary.txt'])
    expect(attached).toContain(`webprof-1-${f}`);
  const chrome = JSON.parse(Buffer.from(result.files['trace.json']).toString('utf8'));
  expect(chrome.traceEvents.length).toBeGreaterThan(0);
});

test.describe('whole-test profiling on request', () => {
  test.use({ webprofProfile: { sampleInterval: 1 } });
  test('the test is profiled from the first page script on', async ({ page, webprof }, testInfo) => {
    await page.goto('/e2e/pages/record/untouched.html');
    await page.waitForTimeout(500);
    // Without stop() the fixture stops after the test body; stopping here
    // lets the test look at the result.
    const result = await webprof.stop();
    expect(result.trace.frames.map((f) => f.name)).toContain('tick');
    expect(result.trace.samples[0].timestamp).toBeLessThan(200);
    expect(testInfo.attachments.map((a) => a.name)).toContain('webprof-test-trace.pftrace');
  });
});

test('the native sampler is given to any page by adding Document-Policy', async ({ page }) => {
  await grantNativeProfiler(page);
  await page.goto('/e2e/pages/record/untouched.html');
  const r = await profile(page, () => page.waitForTimeout(500), { backend: 'native', sampleInterval: 10 });
  expect(r.backend).toBe('native');
  expect(r.sampleInterval).toBe(10);
  expect(r.trace.samples.length).toBeGreaterThan(0);
  expect(r.trace.frames.map((f) => f.name)).toContain('crunchPrimesUntouched');
});
