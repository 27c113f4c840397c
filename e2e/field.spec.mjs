// Field collection end to end, as a site would run it: a page with
// collectProfiles() (the polyfill, or Chromium's native sampler: the page is
// served with the js-profiling policy) loads a bundle esbuild minified with
// a source map in this setup and runs its hot functions; the user leaves (a navigation, a
// closed tab); the example server (examples/field-server/, another origin)
// receives the compressed beacon, maps the frames with the release's map
// on disk and stores the trace, the hot functions under their original
// names and files; `go tool pprof -top` on the server's /pprof/<release>
// lists the hot function by its original name.
import { test, expect } from '@playwright/test';
import { ORIGINAL } from '../tests/support/minified-workload.mjs';
import { fieldApp, installFieldServer, listen, storedProfile } from '../tests/support/field-server.mjs';
import { startStaticServer } from './server.mjs';
import { goPprofTop } from '../tests/support/pprof.mjs';

const RELEASE = 'e2e-2026.12.1';
let fs; // the installed example server: {data, maps, ...}
let server;
let endpoint;
let app; // the built workload app: {serve, deploy}
let siteServer;
let site;

test.beforeAll(async () => {
  fs = await installFieldServer();
  app = await fieldApp(fs);
  server = fs.module.createFieldServer({ data: fs.data, maps: fs.maps });
  endpoint = `${await listen(server)}/ingest`;
  siteServer = await startStaticServer({ port: 0, hooks: [fieldHook] });
  site = `http://127.0.0.1:${siteServer.address().port}`;
});
test.afterAll(() => {
  server?.close();
  siteServer?.close();
});

const PAGE = (release, options) => `<!doctype html><meta charset="utf-8"><script type="module">
import { collectProfiles } from '/dist/webprof.mjs';
window.collector = collectProfiles({
  endpoint: ${JSON.stringify(endpoint)},
  sampled: true,
  release: ${JSON.stringify(release)},
  sampleInterval: 10,
  maxDurationMs: 60000,
  ...${JSON.stringify(options)},
});
const s = document.createElement('script');
s.src = '/field/app.js';
s.onload = () => (window.done = true);
document.head.append(s);
</script>`;

// A release of its own per case, with its map deployed where the server looks.
const deploy = (release) => app.deploy(release);

// Pages are served by a server of the test's own: Playwright's request
// interception (page.route) makes Chromium fail beacons and keepalive fetches.
const pages = new Map();
function fieldHook(req, res, url) {
  const m = /^\/field\/(.+)\.html$/.exec(url.pathname);
  if (m && pages.has(m[1])) {
    res.writeHead(200, {
      'Content-Type': 'text/html',
      'Document-Policy': 'js-profiling',
      'Server-Timing': 'js-profiling',
    });
    res.end(pages.get(m[1]));
    return true;
  }
  return app.serve(req, res, url);
}

async function openPage(page, release, options) {
  pages.set(release, PAGE(release, options));
  await page.goto(`${site}/field/${release}.html`);
  await page.waitForFunction(() => window.done, null, { timeout: 30_000 });
  return page.evaluate(() => window.collector.diagnostics);
}

const waitForStored = (release) => storedProfile(fs.data, release);

// The sampled functions of the bundle as the server stored them, mapped to
// their original files.
function expectMapped(stored, sampler) {
  expect(stored.field.sampler).toBe(sampler);
  expect(stored.field.page).toMatch(/\/field\/[\w.-]+\.html$/);
  expect(stored.symbolication.errors).toEqual([]);
  expect(stored.samples.every((s) => s.stackId !== undefined)).toBe(true);
  const names = new Map();
  for (const s of stored.samples)
    for (let id = s.stackId; id !== undefined; id = stored.stacks[id].parentId) {
      const f = stored.frames[stored.stacks[id].frameId];
      if (f.generated) names.set(f.name, stored.resources[f.resourceId]);
    }
  expect([...names.keys()]).toContain('render');
  for (const [name, url] of names)
    if (ORIGINAL[name]) expect(url.endsWith(`/src/${ORIGINAL[name].file}`), `${name} ${url}`).toBe(true);
}

test('navigating away sends the trace by beacon; the server stores it mapped to the original functions', async ({
  page,
}) => {
  // The polyfill: its stop() settles within pagehide (Chromium's native one does not).
  const release = deploy(`${RELEASE}-nav`);
  const d = await openPage(page, release, { backend: 'polyfill' });
  expect(d.state).toBe('profiling');
  await page.waitForTimeout(1000); // the user reads the page for a second
  await page.goto(`${site}/package.json`); // the user leaves: pagehide
  const stored = await waitForStored(release);
  expect(stored.field.reason).toBe('pagehide');
  expectMapped(stored, 'polyfill');
  // What a profiling server or a person reads: the release's merged pprof, from the server's URL.
  const pprof = await goPprofTop(endpoint.replace(/\/ingest$/, `/pprof/${release}`), { tmp: fs.dir });
  expect(pprof.status, pprof.stderr).toBe(0);
  expect(pprof.rows.map((x) => x.name)).toContain('render');
});

test('closing the tab sends it too', async ({ page }) => {
  const release = deploy(`${RELEASE}-close`);
  await openPage(page, release, { backend: 'polyfill' });
  await page.waitForTimeout(1000);
  await page.close({ runBeforeUnload: false });
  expectMapped(await waitForStored(release), 'polyfill');
});

test("Chromium's native sampler: hidden (a tab switch) sends the trace, and so does the end of maxDurationMs", async ({
  page,
}) => {
  const hidden = deploy(`${RELEASE}-hidden`);
  const d = await openPage(page, hidden, {});
  expect(d.sampler).toBe('native');
  // What a tab switch does to the page (Playwright cannot hide a headless tab).
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const stored = await waitForStored(hidden);
  expect(stored.field.reason).toBe('hidden');
  expectMapped(stored, 'native');
  expect(await page.evaluate(() => window.collector.diagnostics.transport)).toBe('beacon');

  const ended = deploy(`${RELEASE}-duration`);
  await openPage(page, ended, { maxDurationMs: 1500 });
  const byFetch = await waitForStored(ended);
  expect(byFetch.field.reason).toBe('duration');
  expectMapped(byFetch, 'native');
  const after = await page.evaluate(() => window.collector.diagnostics);
  expect(after).toMatchObject({ state: 'sent', transport: 'fetch-keepalive', status: 202, failures: 0 });
});
