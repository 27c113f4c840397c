// Source maps at Profiler.stop() in Chromium: a bundle esbuild minified in
// this test's setup runs under Chromium's own sampler (native backend), and
// the trace stop() returns names every sampled frame of the bundle by its
// original function, file and line — the map found from the bundle's
// `//# sourceMappingURL=` comment, given in `sourceMaps`, or switched off;
// a malformed map fails for its script alone.
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMinifiedApp, definesAt, TEXT_JS, MAIN_JS } from '../tests/support/minified-workload.mjs';

const dir = mkdtempSync(join(tmpdir(), 'webprof-e2e-maps-'));
let bundle;
let map;

test.beforeAll(async () => {
  await buildMinifiedApp(dir);
  bundle = readFileSync(join(dir, 'app.js'), 'utf8');
  map = readFileSync(join(dir, 'app.js.map'), 'utf8');
});

const PAGE = (options) => `<!doctype html><meta charset="utf-8"><script type="module">
import { Profiler, ready } from '/dist/webprof.mjs';
await ready;
const p = new Profiler({ sampleInterval: 1, maxBufferSize: 100000, backend: 'native', ...${options} });
await new Promise((resolve) => {
  const s = document.createElement('script');
  s.src = '/gen/app.js';
  s.onload = resolve;
  document.head.append(s);
});
window.trace = await p.stop();
</script>`;

async function record(page, { options = '{}', mapBody = null, comment = true } = {}) {
  await page.route('**/gen/**', (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/gen/page.html')
      return route.fulfill({
        contentType: 'text/html',
        headers: { 'Document-Policy': 'js-profiling' },
        body: PAGE(options),
      });
    if (path === '/gen/app.js')
      return route.fulfill({
        contentType: 'text/javascript',
        body: comment ? bundle : bundle.replace(/\/\/# sourceMappingURL=.*\n?$/, ''),
      });
    if (path === '/gen/app.js.map')
      return route.fulfill({ contentType: 'application/json', body: mapBody ?? map });
    return route.fulfill({ status: 404 });
  });
  await page.goto('/gen/page.html');
  await page.waitForFunction(() => window.trace, null, { timeout: 30_000 });
  return page.evaluate(() => window.trace);
}

// The bundle's sampled frames (not top-level code) with what they became.
function bundleFrames(trace) {
  const sampled = new Set();
  for (const s of trace.samples)
    for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
      sampled.add(trace.stacks[id].frameId);
  const app = (f) => trace.resources[f.resourceId]?.endsWith('/gen/app.js');
  return [...sampled]
    .map((i) => trace.frames[i])
    .filter((f) => (f.generated ? app(f.generated) && f.generated.name !== '' : app(f) && f.name !== ''));
}

test('stop() maps the sampled frames of a minified bundle through the map its comment names', async ({
  page,
}) => {
  const trace = await record(page);
  expect(trace.symbolication.errors).toEqual([]);
  const frames = bundleFrames(trace);
  const names = new Set();
  for (const f of frames) {
    expect(f.generated, JSON.stringify(f)).toBeTruthy();
    const url = trace.resources[f.resourceId];
    const file = /\/src\/(text|main)\.js$/.exec(url)?.[1];
    expect(file, url).toBeTruthy();
    expect(
      definesAt(file === 'text' ? TEXT_JS : MAIN_JS, f.line, f.name),
      `${f.name} at ${url}:${f.line}`,
    ).toBe(true);
    names.add(f.name);
  }
  // V8 may inline a helper into render (then it is not a frame of its own).
  expect([...names]).toContain('render');
  expect(names.size).toBeGreaterThanOrEqual(2);
  expect(frames.some((f) => f.generated.name !== f.name)).toBe(true); // it was minified
});

test('sourceMaps: false keeps the minified frames; a given map is used without a comment', async ({
  page,
}) => {
  const off = await record(page, { options: '{ sourceMaps: false }' });
  expect(off.symbolication).toBeUndefined();
  expect(bundleFrames(off).every((f) => !f.generated)).toBe(true);

  await page.unrouteAll();
  const given = await record(page, {
    comment: false,
    options: `{ sourceMaps: { [new URL('/gen/app.js', location.href).href]: ${JSON.stringify(map)} } }`,
  });
  expect(given.symbolication.errors).toEqual([]);
  const names = new Set(bundleFrames(given).map((f) => f.name));
  expect([...names]).toContain('render');
});

test('a malformed map leaves its frames as sampled and says why', async ({ page }) => {
  const trace = await record(page, { mapBody: '{"version":3,"sources":[],"mappings":"AAAA"}' });
  expect(trace.symbolication.errors).toHaveLength(1);
  expect(trace.symbolication.errors[0].resource).toMatch(/\/gen\/app\.js$/);
  expect(trace.symbolication.errors[0].message).toMatch(/source index out of range at offset/);
  expect(bundleFrames(trace).every((f) => !f.generated)).toBe(true);
  expect(trace.samples.length).toBeGreaterThan(0);
});
