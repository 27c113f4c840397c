// The demo end to end, and openInPerfetto against the local Perfetto UI
// stand-in (e2e/perfetto-standin), which implements the receiving side as
// the embedding reference documents it.
import { test, expect } from '@playwright/test';

const standinFrame = (page) => page.frames().find((f) => f.url().includes('/e2e/perfetto-standin/'));

test('demo: profile -> exports -> the stand-in receives the trace after the handshake', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/demo/?policy=js-profiling&profile=1');
  await page.waitForFunction(() => ['done', 'error'].includes(window.demo?.state), null, { timeout: 30_000 });
  const demo = await page.evaluate(() => ({
    state: window.demo.state,
    error: window.demo.error,
    sizes: window.demo.sizes,
  }));
  expect(demo.error).toBeNull();
  expect(demo.state).toBe('done');
  expect(demo.sizes.pftrace).toBeGreaterThan(0);
  expect(demo.sizes.pftrace).toBeLessThan(demo.sizes.json);

  const frame = standinFrame(page);
  expect(frame).toBeTruthy();
  const s = await frame.evaluate(() => window.standin);
  expect(s.traces).toHaveLength(1);
  const t = s.traces[0];
  expect(t.title).toBe('webprof demo 1s');
  expect(t.isArrayBuffer).toBe(true);
  expect(t.byteLength).toBe(demo.sizes.pftrace);
  expect(t.pingsBefore).toBeGreaterThanOrEqual(1); // answered a PING first
  expect(t.head[0]).toBe(0x0a); // Trace.packet, length-delimited
  expect(t.keepApiOpen).toBe(true);
  expect(t.fileName).toBe('trace.pftrace');
  expect(s.rejected).toEqual([]);
  expect(s.hash).toContain('mode=embedded');

  // Summary and downloads are on the page.
  await expect(page.locator('#summary table').first()).toBeVisible();
  expect(await page.locator('#summary').innerText()).toContain('rows:sort');
  expect(errors).toEqual([]);
});

test('control messages reach the UI with keepApiOpen; other traffic is perfettoIgnore', async ({ page }) => {
  await page.goto('/demo/?policy=js-profiling&profile=0.5');
  await page.waitForFunction(() => window.demo?.state === 'done', null, { timeout: 30_000 });
  await page.evaluate(() => {
    window.demo.perfetto.setVisibleRange(1.5, 2.25);
    window.demo.perfetto.selectSlice(7);
    window.demo.perfetto.post({ hello: 'other traffic' });
  });
  const frame = standinFrame(page);
  await frame.waitForFunction(() => window.standin.controls.length === 2 && window.standin.ignored >= 1);
  const s = await frame.evaluate(() => window.standin);
  expect(s.controls.map(({ origin, ...c }) => c)).toEqual([
    { timeStart: 1.5, timeEnd: 2.25 },
    { sliceId: 7 },
  ]);
  expect(s.listening).toBe(true);
});

test('without keepApiOpen the stand-in stops listening and the handle refuses control', async ({ page }) => {
  await page.goto('/e2e/pages/perfetto-silent.html'); // any page that loads the package
  const out = await page.evaluate(async () => {
    const { openInPerfetto } = await import('webprof');
    const div = document.createElement('div');
    document.body.appendChild(div);
    const h = await openInPerfetto(new Uint8Array([10, 0]).buffer, {
      title: 'once<>',
      container: div,
      origin: `${location.origin}/e2e/perfetto-standin/`,
    });
    let refused = '';
    try {
      h.setVisibleRange(0, 1);
    } catch (e) {
      refused = e.message;
    }
    const w = h.iframe.contentWindow;
    while (w.standin.traces.length === 0) await new Promise((r) => setTimeout(r, 20));
    return { refused, state: w.standin };
  });
  expect(out.refused).toMatch(/keepApiOpen/);
  expect(out.state.listening).toBe(false);
  expect(out.state.traces[0].title).toBe('once  '); // sanitized by the host
});

test('a frame that never answers PING gives the timeout error', async ({ page }) => {
  await page.goto('/e2e/pages/perfetto-silent.html');
  const r = await page.evaluate(() => window.result);
  expect(r.ok).toBe(false);
  expect(r.name).toBe('PerfettoTimeoutError');
  expect(r.message).toMatch(/did not answer PING within 800 ms/);
  expect(r.message).toMatch(/file:\/\//);
  const frame = standinFrame(page);
  const s = await frame.evaluate(() => window.standin);
  expect(s.pings).toBeGreaterThan(1);
  expect(s.traces).toEqual([]);
});
