// Platform calls as sample points in Chromium without the policy: the
// README's first snippet as written (drop-in, no transform, no service
// worker) samples inside a 100 ms performance.now() spin. The same in
// Firefox ESR: e2e/firefox/nobuild.test.mjs.
import { test, expect } from '@playwright/test';
import { pageProfile } from './nobuild-helpers.mjs';

test("the README's drop-in snippet samples inside a 100 ms performance.now() spin with no transform", async ({
  page,
}) => {
  await page.goto('/e2e/pages/profiler/spin.html');
  const r = await page.evaluate(pageProfile, ['doWork']);
  expect(r.backend).toBe('polyfill');
  expect(r.denseReady).toBe(false);
  // Without the wrapped clock none can be inside: nothing on this page is rewritten.
  expect(r.inside).toBeGreaterThanOrEqual(2);
  expect(r.inside / r.samples).toBeGreaterThanOrEqual(0.5);
});

test('a drop-in trace with no JS stacks warns once in the console, saying why and what to do', async ({
  page,
}) => {
  const warnings = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await page.goto('/e2e/pages/profiler/dropin.html');
  for (let round = 0; round < 2; round++) {
    await page.evaluate(async () => {
      await webprof.ready;
      const p = new Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
      // Busy tasks that never read the clock: nothing of webprof runs inside them.
      for (let k = 0; k < 10; k++)
        await new Promise((resolve) =>
          setTimeout(() => {
            let x = 0;
            for (let i = 0; i < 3e6; i++) x += i % 7;
            resolve(x);
          }, 0),
        );
      await p.stop();
    });
  }
  const notes = warnings.filter((w) => /samples have no JS stack/.test(w));
  expect(notes.length).toBe(1);
  expect(notes[0]).toMatch(/Document-Policy: js-profiling/);
  expect(notes[0]).toMatch(/data-dense/);
});
