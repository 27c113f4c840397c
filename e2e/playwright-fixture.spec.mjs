// webprof/playwright as a user writes it: the fixture profiles a block of
// actions or a whole test and attaches the files to the report.
import { test as base, expect } from '@playwright/test';
import { withWebprof, profile, grantNativeProfiler, install } from 'webprof/playwright';

const test = withWebprof(base);

test('profile() around a click, page scripts rewritten for dense samples, attaches files', async ({
  page,
  webprof,
}, testInfo) => {
  await install(page, { dense: true });
  await page.goto('/e2e/pages/record/untouched.html');
  const result = await webprof.profile(
    async () => {
      await page.click('#go');
      await page.waitForSelector('#done', { state: 'attached' });
    },
    { sampleInterval: 1 },
  );
  expect(result.backend).toBe('polyfill');
  const names = result.trace.frames.map((f) => f.name);
  expect(names).toContain('onGoClicked');
  expect(names).toContain('crunchPrimesUntouched');
  expect(result.summary.top.map((r) => r.name)).toContain('crunchPrimesUntouched');
  // Frames point at the page's own script and its definition positions.
  const url = result.trace.resources.find((r) => r.endsWith('/untouched.js'));
  expect(url).toBeTruthy();
  const attached = testInfo.attachments.map((a) => a.name);
  for (const f of ['trace.json', 'profile.cpuprofile', 'trace.pftrace', 'summary.txt'])
    expect(attached).toContain(`webprof-1-${f}`);
  const chrome = JSON.parse(Buffer.from(result.files['trace.json']).toString('utf8'));
  expect(chrome.traceEvents.length).toBeGreaterThan(0);
});

test("the fixture on the demo page finds the demo's hot functions in the attached trace", async ({
  page,
  webprof,
}, testInfo) => {
  await install(page, { dense: true });
  await page.goto('/demo/');
  await page.fill('#seconds', '1');
  const result = await webprof.profile(async () => {
    await page.click('#profile');
    await page.waitForFunction(() => ['opening', 'done', 'error'].includes(window.demo?.state));
  });
  const attachment = testInfo.attachments.find((a) => a.name === 'webprof-1-profile.cpuprofile');
  const cpu = JSON.parse(attachment.body.toString('utf8'));
  const hits = new Map();
  for (const n of cpu.nodes)
    hits.set(n.callFrame.functionName, (hits.get(n.callFrame.functionName) || 0) + n.hitCount);
  for (const hot of ['runRound', 'renderTable', 'makePayload']) expect(hits.has(hot), hot).toBe(true);
  expect(result.summary.top.length).toBeGreaterThan(0);
});

// The README's snippet as written: the fixture rewrites what the page loads
// from the first navigation on, so a profile taken around a click samples
// inside the page's synchronous inline loop.
test("the README's fixture snippet samples inside an untouched page's synchronous click handler", async ({
  page,
  webprof,
}) => {
  await page.goto('/e2e/pages/record/checkout.html');
  const result = await webprof.profile(() => page.click('#pay'), { sampleInterval: 1 });
  expect(result.backend).toBe('polyfill');
  const names = (s) => {
    const out = [];
    for (let id = s.stackId; id !== undefined; id = result.trace.stacks[id].parentId)
      out.push(result.trace.frames[result.trace.stacks[id].frameId].name);
    return out;
  };
  const inHandler = result.trace.samples.filter((s) => s.stackId !== undefined && names(s).includes('onPay'));
  // 200 ms of a synchronous loop: Chromium's native sampler (10 ms) takes
  // about 20 samples there; the polyfill at 1 ms 30-70 on an idle machine
  // (fewer when the machine is busy: the bound leaves room for that).
  expect(inHandler.length).toBeGreaterThanOrEqual(10);
  expect(inHandler.some((s) => names(s)[0] === 'priceBasket')).toBe(true);
  // Frames point at the document's own lines: the inline functions' definitions.
  const html = result.trace.resources.findIndex((r) => r.endsWith('/checkout.html'));
  const lines = new Map(
    result.trace.frames.filter((f) => f.resourceId === html).map((f) => [f.name, [f.line, f.column]]),
  );
  expect(lines.get('priceBasket')).toEqual([8, 23]);
  expect(lines.get('onPay')).toEqual([15, 74]); // the `(` of each, as Chromium reports
  expect(result.unsampled).toEqual([]);
  expect(result.pageErrors).toEqual([]);
});

test.describe('with webprofDense: false', () => {
  test.use({ webprofDense: false });
  test('without the transform the polyfill samples only at task boundaries', async ({ page }) => {
    await page.goto('/e2e/pages/record/untouched.html');
    const result = await profile(page, async () => {
      await page.click('#go');
      await page.waitForSelector('#done', { state: 'attached' });
    });
    expect(result.backend).toBe('polyfill');
    expect(result.trace.samples.length).toBeGreaterThan(0);
    // The page's long loop has no probe site inside it: none of its samples
    // can name the functions running there.
    expect(result.trace.frames.map((f) => f.name)).not.toContain('crunchPrimesUntouched');
  });
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
    // Started by the init script: before the page's first script had even
    // arrived, let alone run.
    const scriptArrived = await page.evaluate(
      () =>
        performance.getEntriesByType('resource').find((e) => e.name.endsWith('/untouched.js')).responseEnd,
    );
    expect(result.startedAt).toBeLessThan(scriptArrived);
    expect(testInfo.attachments.map((a) => a.name)).toContain('webprof-test-trace.pftrace');
  });
});

test('the native sampler is given to any page by adding Document-Policy', async ({ page }) => {
  await grantNativeProfiler(page);
  await page.goto('/e2e/pages/record/untouched.html');
  // 10 ms samples of a busy page: under load a 500 ms profile can miss the
  // shorter of the two hot functions, so up to three profiles are taken.
  let r;
  for (let attempt = 0; attempt < 3; attempt++) {
    r = await profile(page, () => page.waitForTimeout(500), { backend: 'native', sampleInterval: 10 });
    if (r.trace.frames.some((f) => f.name === 'crunchPrimesUntouched')) break;
  }
  expect(r.backend).toBe('native');
  expect(r.sampleInterval).toBe(10);
  expect(r.trace.samples.length).toBeGreaterThan(0);
  expect(r.trace.frames.map((f) => f.name)).toContain('crunchPrimesUntouched');
});

test("profile(): an action that fails rejects with the action's error, and the profile is stopped", async ({
  page,
}) => {
  await page.goto('/e2e/pages/record/untouched.html');
  const failed = await profile(
    page,
    async () => {
      throw new Error('the click found no button');
    },
    { sampleInterval: 1 },
  ).catch((e) => e);
  expect(failed.message).toBe('the click found no button');
  expect(await page.evaluate(() => !!globalThis.__webprof__.__session)).toBe(false);
  // The action closed the page: its profile cannot be stopped, and that
  // error (a consequence) must not replace the action's.
  const closed = await profile(
    page,
    async () => {
      await page.close();
      throw new Error('the page went away under the test');
    },
    { sampleInterval: 1 },
  ).catch((e) => e);
  expect(closed.message).toBe('the page went away under the test');
});
