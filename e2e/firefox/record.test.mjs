// Firefox's own sampler (Gecko) where webprof drives the browser: `webprof
// record --browser firefox` and the programmatic API, on an untouched page
// whose inline script runs a 40 ms hot loop every 45 ms. Each case is one
// Firefox launch (its profile is written when it closes).
// Run: node --test e2e/firefox/   (needs the dist build)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from '../server.mjs';
import { launchProfiledFirefox } from '../../dist/playwright.mjs';
import { webprofCli } from '../../tests/support/spawn.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let server, base;
before(async () => {
  server = await startStaticServer({ port: 0, base: join(root, 'e2e', 'pages', 'record') });
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

const run = (args) => webprofCli(args);

// The hot function's row of summary.txt: "self%  total%  name (url:line)".
function hotRow(summaryText) {
  const m = /^\s*([\d.]+)%\s+([\d.]+)%\s+hotInline \((\S+):(\d+)\)$/m.exec(summaryText);
  return m && { self: Number(m[1]), total: Number(m[2]), url: m[3], line: Number(m[4]) };
}

test('webprof record --browser firefox: Gecko samples, the hot function named with file and line', async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-firefox-'));
  const r = await run([
    'record',
    `${base}/hot-inline.html`,
    '--browser',
    'firefox',
    '--seconds',
    '2',
    '--out',
    out,
  ]);
  assert.equal(r.status, 0, r.stderr);
  for (const f of ['trace.json', 'profile.cpuprofile', 'trace.pftrace', 'summary.txt'])
    assert.ok(existsSync(join(out, f)) && statSync(join(out, f)).size > 0, f);
  const summary = readFileSync(join(out, 'summary.txt'), 'utf8');
  assert.match(summary, /sampler: Gecko \(Firefox's own\), every 1 ms/);
  const hot = hotRow(summary);
  assert.ok(hot, summary);
  assert.equal(hot.url, `${base}/hot-inline.html`);
  assert.equal(hot.line, 5);
  assert.ok(hot.self >= 40, summary);
  // The sampler is in the trace too, and nothing of the browser's own JS.
  const chrome = readFileSync(join(out, 'trace.json'), 'utf8');
  assert.match(chrome, /Gecko \(Firefox's own\) sampler, 1 ms/);
  assert.doesNotMatch(chrome, /chrome:\/\/|resource:\/\//);
  const cpu = JSON.parse(readFileSync(join(out, 'profile.cpuprofile'), 'utf8'));
  assert.ok(cpu.nodes.some((n) => n.callFrame.functionName === 'hotInline' && n.callFrame.lineNumber === 4));
});

// Gecko records whole processes, and puppeteer runs Firefox without site
// isolation (fission.webContentIsolationStrategy 0): a tab's documents share
// its content process, so a navigation — here to another site — stays in the
// one trace the importer takes, on the profile's one time base.
test('webprof record --browser firefox: a --script that navigates to another site gives both documents', async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-firefox-nav-'));
  const script = join(out, 'navigate.mjs');
  writeFileSync(
    script,
    `export default async ({ page }) => {
  await new Promise((r) => setTimeout(r, 1200));
  await page.goto(page.url().replace('127.0.0.1', 'localhost').replace('nav-first', 'nav-second'));
};
`,
  );
  const r = await run([
    'record',
    `${base}/nav-first.html`,
    '--browser',
    'firefox',
    '--script',
    script,
    '--seconds',
    '1.2',
    '--out',
    join(out, 'files'),
  ]);
  assert.equal(r.status, 0, r.stderr);
  const summary = readFileSync(join(out, 'files', 'summary.txt'), 'utf8');
  const row = (name, url) =>
    new RegExp(`^\\s*([\\d.]+)%\\s+[\\d.]+%\\s+${name} \\(${url.replace(/[.]/g, '\\.')}:6\\)$`, 'm').exec(
      summary,
    );
  const first = row('hotInFirstDocument', `${base}/nav-first.html`);
  const second = row('hotInSecondDocument', `${base.replace('127.0.0.1', 'localhost')}/nav-second.html`);
  assert.ok(first && Number(first[1]) >= 10, summary);
  assert.ok(second && Number(second[1]) >= 10, summary);
});

test('launchProfiledFirefox: the programmatic API with puppeteer-core', async () => {
  const firefox = await launchProfiledFirefox({ interval: 1 });
  const page = await firefox.browser.newPage();
  const windowStart = Date.now();
  await page.goto(`${base}/hot-inline.html`);
  await new Promise((r) => setTimeout(r, 1500));
  const result = await firefox.finish({ pageUrl: page.url(), windowStart });
  assert.equal(result.backend, 'gecko');
  assert.equal(result.sampleInterval, 1);
  assert.equal(result.gecko.threadName, 'GeckoMain');
  const [top] = result.summary.top;
  assert.equal(top.name, 'hotInline', result.summaryText);
  assert.equal(top.url, `${base}/hot-inline.html`);
  assert.ok(top.selfPercent >= 40, result.summaryText);
  // Samples are inside the window: timestamps count from its start.
  const last = result.trace.samples.at(-1).timestamp;
  assert.ok(last > 500 && last < 3000, String(last));
  // Every export format of the registry, and the summary.
  for (const f of ['trace.json', 'profile.cpuprofile', 'trace.pftrace', 'summary.txt'])
    assert.ok(result.files[f]?.byteLength > 0, f);
});
