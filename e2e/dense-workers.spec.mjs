// Dedicated workers' scripts are rewritten for dense sampling where webprof
// controls loading (the Playwright route) and under the drop-in's
// data-dense (the service worker), and their frames keep the original
// positions, line 1 included.
import { test as base, expect } from '@playwright/test';
import { install, profile, withWebprof } from 'webprof/playwright';
import { workerProfile } from './nobuild-helpers.mjs';

const test = withWebprof(base);

function inside(trace, name) {
  let n = 0;
  for (const s of trace.samples)
    for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
      if (trace.frames[trace.stacks[id].frameId].name === name) {
        n++;
        break;
      }
  return n;
}

test('the route: two classic workers from one URL load the agent, frames on line 1 keep their columns', async ({
  page,
  webprof,
  baseURL,
}) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/e2e/pages/record/line1-workers.html');
  // profile() starts the workers that run when it is called.
  await expect.poll(() => page.workers().length).toBe(2);
  const result = await webprof.profile(() => page.waitForTimeout(600), { sampleInterval: 1 });
  expect(result.workers).toHaveLength(2);
  for (const w of result.workers) {
    const hot = inside(w.trace, 'hotLine1');
    expect(hot / w.trace.samples.length, `${hot} of ${w.trace.samples.length}`).toBeGreaterThanOrEqual(0.5);
    const frames = w.trace.frames.filter((f) => f.name === 'hotLine1');
    expect(frames.map((f) => [w.trace.resources[f.resourceId], f.line, f.column])).toEqual([
      [`${baseURL}/e2e/pages/record/line1-worker.js`, 1, 18],
    ]);
  }
  expect(result.unsampled).toEqual([]);
  expect(errors).toEqual([]);
});

test('the route: a worker started while profile() runs joins the profile', async ({
  page,
  webprof,
  baseURL,
}) => {
  await page.goto('/e2e/pages/record/late-worker.html');
  const result = await webprof.profile(
    async () => {
      await page.click('#start');
      await page.waitForTimeout(600);
    },
    { sampleInterval: 1 },
  );
  expect(result.workers).toHaveLength(1);
  const w = result.workers[0];
  expect(w.url).toBe(`${baseURL}/e2e/pages/record/line1-worker.js`);
  expect(inside(w.trace, 'hotLine1')).toBeGreaterThanOrEqual(2);
});

// The route knows a worker's script from the worker's own request: the
// page's agent starts it from a marked URL, which the route answers with a
// bootstrap (agent, then the script). It used to be told by a binding call
// beside the request, and under load the request won (the worker ran
// rewritten code without the agent: `__wp$f is not defined`). Here every
// binding call the page makes is held back 1 s.
base(
  "the route: workers load the agent however late the page's binding calls land",
  async ({ page, baseURL }) => {
    const exposeBinding = page.exposeBinding.bind(page);
    page.exposeBinding = (name, fn, options) =>
      exposeBinding(
        name,
        async (...args) => {
          await new Promise((r) => setTimeout(r, 1000));
          return fn(...args);
        },
        options,
      );
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await install(page, { dense: true });
    await page.goto('/e2e/pages/record/race-workers.html');
    await expect.poll(() => page.workers().length).toBe(2);
    const script = `${baseURL}/e2e/pages/record/line1-worker.js`;
    // Both run the agent (the globals the rewritten script's checks call).
    const checks = await Promise.all(
      page.workers().map((w) => w.evaluate(() => globalThis.__wp$f !== undefined)),
    );
    expect(checks, errors.join('\n')).toEqual([true, true]);
    const result = await profile(page, () => page.waitForTimeout(600), { sampleInterval: 1 });
    expect(result.workers.map((w) => w.url).sort()).toEqual([script, `${script}?v=1#frag`]);
    for (const w of result.workers) {
      const hot = inside(w.trace, 'hotLine1');
      expect(
        hot / w.trace.samples.length,
        `${w.url}: ${hot} of ${w.trace.samples.length}`,
      ).toBeGreaterThanOrEqual(0.5);
      // Line 1's columns kept in both (the bootstrap loads the script as it is).
      const frames = w.trace.frames.filter((f) => f.name === 'hotLine1');
      expect(frames.map((f) => [w.trace.resources[f.resourceId], f.line, f.column])).toEqual([
        [w.url.startsWith(`${script}?v=1`) ? `${script}?v=1` : script, 1, 18],
      ]);
    }
    expect(result.unsampled).toEqual([]);
    expect(errors).toEqual([]);
    // A worker runs at the marked URL (the page's query and fragment kept);
    // its script, frames and result name the page's URL.
    const locations = await Promise.all(page.workers().map((w) => w.evaluate(() => location.href)));
    expect(locations.sort()).toEqual([
      `${script}?__webprof_worker=module`,
      `${script}?v=1&__webprof_worker=classic#frag`,
    ]);
  },
);

// Without the fixture: nothing but the service worker rewrites the page.
base(
  'data-dense: a classic worker started by the page is rewritten by the service worker, line 1 kept',
  async ({ page, baseURL }) => {
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/e2e/pages/dense/worker.html');
    // First visit: nothing rewritten, and the worker's loop has no sample point.
    expect(await page.evaluate(() => webprof.denseReady)).toBe(false);
    const before = await page.evaluate(workerProfile, 'hotWorker');
    expect(before.rewritten).toBe(false);
    expect(before.inside).toBe(0);

    await page.reload();
    expect(await page.evaluate(() => webprof.denseReady)).toBe(true);
    const r = await page.evaluate(workerProfile, 'hotWorker');
    expect(r.rewritten).toBe(true);
    expect(r.inside).toBeGreaterThanOrEqual(2);
    expect(r.inside / r.samples).toBeGreaterThanOrEqual(0.5);
    expect(r.frames).toEqual([{ resource: `${baseURL}/e2e/pages/dense/worker.js`, line: 1, column: 19 }]);
    expect(errors).toEqual([]);
  },
);
