// openInPerfetto and the demo refuse a Perfetto "origin" that is not an
// absolute http(s) URL before anything runs (issue 18, item 8): a
// javascript: URL given as the UI's base would otherwise run in the page
// (the iframe's or the new tab's src).
import { test, expect } from '@playwright/test';

const HOSTILE = [
  "javascript:window.ran=(window.ran||0)+1;''",
  "javascript:parent.ran=(parent.ran||0)+1;''",
  'data:text/html,<script>parent.ran=1</script>',
  'blob:http://127.0.0.1/x',
  'file:///etc/passwd',
  '//ui.perfetto.dev',
  '',
];

test('openInPerfetto rejects a non-http(s) origin in every mode and opens nothing', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/e2e/pages/perfetto-silent.html');
  const out = await page.evaluate(async (HOSTILE) => {
    // The page's own call makes its frame once the tools module is in (on
    // first use, asynchronously): let it, so that frame is not counted below.
    await window.result;
    const { openInPerfetto, perfettoUrl } = await import('webprof');
    let opened = 0;
    const realOpen = window.open;
    window.open = (...a) => {
      opened++;
      return realOpen.apply(window, a);
    };
    const results = [];
    for (const origin of HOSTILE) {
      for (const mode of ['container', 'iframe', 'newWindow']) {
        const opts = { title: 't', origin };
        if (mode === 'container') opts.container = document.body;
        if (mode === 'iframe') opts.iframe = document.body.appendChild(document.createElement('iframe'));
        if (mode === 'newWindow') opts.newWindow = true;
        const frames = document.querySelectorAll('iframe').length;
        let r;
        try {
          const p = openInPerfetto(new Uint8Array([1]).buffer, opts);
          r = await p.then(
            () => 'resolved',
            (e) => `${e.name}: ${e.message}`,
          );
        } catch (e) {
          r = `threw ${e.name}`;
        }
        results.push({
          origin,
          mode,
          r,
          newFrames: document.querySelectorAll('iframe').length - frames,
          src: opts.iframe ? opts.iframe.getAttribute('src') : null,
        });
      }
      let url;
      try {
        url = perfettoUrl({}, origin);
      } catch (e) {
        url = e.name;
      }
      results.push({ origin, mode: 'perfettoUrl', r: url });
    }
    await new Promise((r) => setTimeout(r, 300));
    return { results, opened, ran: window.ran || 0 };
  }, HOSTILE);
  for (const r of out.results) {
    if (r.mode === 'perfettoUrl') {
      expect(r.r, r.origin).toBe('TypeError');
      continue;
    }
    expect(r.r, `${r.mode} ${r.origin}`).toMatch(
      /^TypeError: webprof: Perfetto origin must be an absolute http\(s\) URL/,
    );
    expect(r.newFrames, `${r.mode} ${r.origin}`).toBe(0);
    if (r.mode === 'iframe') expect(r.src).toBeNull();
  }
  expect(out.opened).toBe(0);
  expect(out.ran).toBe(0);
  expect(errors).toEqual([]);
});

test('the demo refuses a javascript: ?perfetto= and says so, using its default UI', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const hostile = "javascript:parent.ran=1;''";
  await page.goto(`/demo/?perfetto=${encodeURIComponent(hostile)}&profile=0.3`);
  await page.waitForFunction(() => ['done', 'error'].includes(window.demo?.state), null, { timeout: 30_000 });
  const r = await page.evaluate(() => ({
    state: demo.state,
    origin: demo.perfettoOrigin,
    ran: window.ran || 0,
    srcs: [...document.querySelectorAll('iframe')].map((f) => f.src),
  }));
  expect(r.ran).toBe(0);
  expect(r.origin).toBe(new URL('/e2e/perfetto-standin/', page.url()).href);
  expect(r.srcs.every((s) => s.startsWith('http'))).toBe(true);
  expect(r.state).toBe('done');
  expect(errors).toEqual([]);
});
