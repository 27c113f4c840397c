// Field collection in Firefox ESR (no native Profiler: the polyfill, which
// samples at the bundle's Date.now() calls), driven by puppeteer-core over
// WebDriver BiDi: a page with collectProfiles() runs a bundle esbuild
// minified with a source map in this setup; the user navigates away; the
// example server (examples/field-server/) receives the compressed beacon and
// stores the trace with the hot functions under their original names.
// Run: node --test e2e/firefox/   (needs the dist build)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { startStaticServer } from '../server.mjs';
import { ORIGINAL } from '../../tests/support/minified-workload.mjs';
import { fieldApp, installFieldServer, listen, storedProfile } from '../../tests/support/field-server.mjs';

const FIREFOX = process.env.WEBPROF_FIREFOX || '/usr/lib/firefox-esr/firefox-esr';
const RELEASE = 'firefox-1';
let site, field, browser, base, endpoint, fs;

before(async () => {
  fs = await installFieldServer();
  const app = await fieldApp(fs);
  app.deploy(RELEASE);
  field = fs.module.createFieldServer({ data: fs.data, maps: fs.maps });
  endpoint = `${await listen(field)}/ingest`;
  const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { collectProfiles } from '/dist/webprof.mjs';
window.collector = collectProfiles({ endpoint: ${JSON.stringify(endpoint)}, sampled: true,
  release: ${JSON.stringify(RELEASE)}, sampleInterval: 2, maxDurationMs: 60000 });
const s = document.createElement('script');
s.src = '/field/app.js';
s.onload = () => (window.done = true);
document.head.append(s);
</script>`;
  const hook = (req, res, url) => {
    if (url.pathname === '/field/page.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(page);
      return true;
    }
    return app.serve(req, res, url);
  };
  site = await startStaticServer({ port: 0, hooks: [hook] });
  base = `http://127.0.0.1:${site.address().port}`;
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
});
after(async () => {
  if (browser) await browser.close();
  site?.close();
  field?.close();
});

const waitForStored = (release) => storedProfile(fs.data, release);

test('leaving the page sends the polyfill trace; the server maps it to the original functions', async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/field/page.html`);
  await page.waitForFunction(() => window.done === true, { timeout: 30_000 });
  const d = await page.evaluate(() => window.collector.diagnostics);
  assert.equal(d.state, 'profiling');
  assert.equal(d.sampler, 'polyfill');
  await page.goto(`${base}/package.json`);
  const stored = await waitForStored(RELEASE);
  assert.equal(stored.field.sampler, 'polyfill');
  assert.match(stored.field.userAgent, /Firefox/);
  assert.deepEqual(stored.symbolication.errors, []);
  const names = new Map();
  for (const s of stored.samples)
    for (let id = s.stackId; id !== undefined; id = stored.stacks[id].parentId) {
      const f = stored.frames[stored.stacks[id].frameId];
      if (f.generated) names.set(f.name, stored.resources[f.resourceId]);
    }
  assert.ok(names.has('render'), [...names.keys()].join(', '));
  for (const [name, url] of names)
    if (ORIGINAL[name]) assert.ok(url.endsWith(`/src/${ORIGINAL[name].file}`), `${name} ${url}`);
  await page.close();
});
