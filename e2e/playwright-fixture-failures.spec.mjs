// The fixture's whole-test profile when it cannot be stopped as planned: the
// page's stop() fails, or the test closes the page first. The test's reader
// learns what was lost and why (the error, or the report's annotations and
// the console), and whatever was recorded — the documents the profile
// left before — is still written.
import { test as base, expect } from '@playwright/test';
import { withWebprof } from 'webprof/playwright';

const FIRST = '/e2e/pages/record/nav-first.html';

// The fixture tears `webprof` down before the fixtures it depends on: this
// override of one of them (same value) looks at what that teardown left.
let afterTeardown = null;
const test = withWebprof(base).extend({
  webprofDense: async ({}, use, testInfo) => {
    await use(true);
    if (afterTeardown) await afterTeardown(testInfo);
    afterTeardown = null;
  },
});
test.use({ webprofProfile: { sampleInterval: 1 } });

// The document's profile rejects at stop(), as a sampler that broke would.
const breakStop = (page) =>
  page.evaluate(() => {
    globalThis.__webprof__.__session.profiler.stop = () => Promise.reject(new Error('the sampler broke'));
  });

const toNext = async (page) => {
  await page.goto(FIRST);
  await page.waitForTimeout(400);
  await page.click('#next');
  await page.waitForURL('**/nav-second.html');
  await page.waitForTimeout(200);
};

const leaves = (trace) =>
  trace.samples
    .filter((s) => s.stackId !== undefined)
    .map((s) => trace.frames[trace.stacks[s.stackId].frameId].name);

test("a stop() that fails in the page is the error of webprof.stop(), naming the page and the page's error", async ({
  page,
  webprof,
}) => {
  await page.goto('/e2e/pages/record/untouched.html');
  await breakStop(page);
  const error = await webprof.stop().then(
    () => null,
    (e) => e,
  );
  expect(error).not.toBeNull();
  expect(error.message).toMatch(
    /^webprof: the profile in http:\/\/\S+\/untouched\.html could not be stopped/,
  );
  expect(error.message).toContain('the sampler broke');
});

test('the documents left before are still written when the last one cannot be stopped, and the loss is said', async ({
  page,
  webprof,
}, testInfo) => {
  await toNext(page);
  await breakStop(page);
  const result = await webprof.stop();
  expect(leaves(result.trace)).toContain('hotInFirstDocument');
  expect(result.problems).toHaveLength(1);
  expect(result.problems[0]).toMatch(/nav-second\.html could not be stopped .*the sampler broke/);
  expect(result.summaryText).toMatch(/not collected \(1\):\n.*the sampler broke/);
  expect(testInfo.attachments.map((a) => a.name)).toContain('webprof-test-trace.json');
  const said = testInfo.annotations.filter((a) => a.type === 'webprof').map((a) => a.description);
  expect(said.join('\n')).toContain('the sampler broke');
});

test('a page the test closed: the teardown writes the documents left before and says the last one is lost', async ({
  page,
}) => {
  await toNext(page);
  await page.close();
  afterTeardown = (testInfo) => {
    const names = testInfo.attachments.map((a) => a.name);
    expect(names).toContain('webprof-test-trace.json');
    const summary = testInfo.attachments.find((a) => a.name === 'webprof-test-summary.txt').body.toString();
    expect(summary).toContain('hotInFirstDocument');
    expect(summary).toMatch(/not collected \(1\):\n.*nav-second\.html could not be stopped .*closed/);
    const said = testInfo.annotations.filter((a) => a.type === 'webprof').map((a) => a.description);
    expect(said.join('\n')).toMatch(/nav-second\.html could not be stopped/);
  };
});

test('a page closed with nothing left before: the teardown says the whole-test profile is lost, and why', async ({
  page,
}) => {
  await page.goto('/e2e/pages/record/untouched.html');
  await page.waitForTimeout(200);
  await page.close();
  afterTeardown = (testInfo) => {
    const said = testInfo.annotations.filter((a) => a.type === 'webprof').map((a) => a.description);
    expect(said.join('\n')).toMatch(
      /the whole-test profile was not written: .*untouched\.html could not be stopped .*closed/,
    );
  };
});
