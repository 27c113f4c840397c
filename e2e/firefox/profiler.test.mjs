// The Profiler polyfill's e2e scenarios in Firefox ESR (no native API there),
// driven by puppeteer-core over WebDriver BiDi: spec frame names and
// definition positions, concurrent profilers, the buffer limit, argument
// errors, workers, and RuntimeProfiler's example. One browser launch for the whole file (~1.7 s).
// Run: node --test e2e/firefox/   (needs `npm run build:js` first)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { startStaticServer } from '../server.mjs';
import { buildTransformed, checkIntegrity, checkWorkerTrace, framesOf } from '../fidelity-helpers.mjs';

const FIREFOX = process.env.WEBPROF_FIREFOX || '/usr/lib/firefox-esr/firefox-esr';
let server, browser, base;

before(async () => {
  await buildTransformed('workload.mjs');
  await buildTransformed('split.mjs');
  server = await startStaticServer({ port: 0 });
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
});
after(async () => {
  if (browser) await browser.close();
  if (server) server.close();
});

async function open(path) {
  const page = await browser.newPage();
  await page.goto(base + path);
  await page.waitForFunction(() => window.pageReady === true);
  return page;
}

test('frame names follow the spec and positions are definitions', async () => {
  const page = await open('/e2e/pages/fidelity/side.html');
  try {
    const { polyfill, backend } = await page.evaluate(() => window.polyfillOnly(2));
    assert.equal(backend, 'polyfill');
    checkIntegrity(polyfill);
    const frames = framesOf(polyfill);
    const doc = `${base}/e2e/pages/fidelity/side.html`;
    const script = `${base}/build/e2e/fidelity/workload.mjs`;
    // The web-platform-tests' line/column cases, as Chromium reports them.
    for (const want of [
      { name: 'decl', resource: script, line: 12, column: 14 },
      { name: 'inlineOuter', resource: doc, line: 6, column: 23 },
      { name: 'inlineMiddle', resource: doc, line: 7, column: 26 },
      { name: 'inlineInner', resource: doc, line: 8, column: 27 },
    ])
      assert.ok(
        frames.some((f) => JSON.stringify(f) === JSON.stringify(want)),
        `missing ${JSON.stringify(want)}`,
      );
    // SpiderMonkey's display names (`get prop`, `K`, `obj.f`, `outer/deeper/deepest<`)
    // become the spec's.
    const names = new Set(frames.filter((f) => f.resource === script).map((f) => f.name));
    for (const n of ['get prop', 'set prop', 'K', 'Sub', 'method', 'f', 'quoted key', 'inner', 'deepest', ''])
      assert.ok(names.has(n), `no frame named ${JSON.stringify(n)} in ${[...names].join(', ')}`);
    assert.ok(![...names].some((n) => n.includes('/') || n.includes('<')), [...names].join(', '));
  } finally {
    await page.close();
  }
});

test('concurrent profilers, buffer limit and argument errors', async () => {
  const page = await open('/e2e/pages/fidelity/side.html');
  try {
    const r = await page.evaluate(async () => {
      const { Profiler } = window.webprof;
      const errors = [];
      for (const bad of [
        undefined,
        { sampleInterval: 1 },
        { maxBufferSize: 1 },
        { sampleInterval: -1, maxBufferSize: 1 },
      ])
        try {
          new Profiler(bad);
          errors.push('none');
        } catch (e) {
          errors.push(e.name);
        }
      const a = new Profiler({ sampleInterval: 1, maxBufferSize: 1000, backend: 'polyfill' });
      const b = new Profiler({ sampleInterval: 5, maxBufferSize: 1000, backend: 'polyfill' });
      const small = new Profiler({ sampleInterval: 1, maxBufferSize: 3, backend: 'polyfill' });
      let full = 0;
      small.addEventListener('samplebufferfull', () => full++);
      window.spinForInline(60);
      await new Promise((res) => setTimeout(res, 20));
      const [ta, tb, ts] = await Promise.all([a.stop(), b.stop(), small.stop()]);
      let second;
      try {
        await a.stop();
        second = 'resolved';
      } catch (e) {
        second = e.name;
      }
      return { errors, ta, tb, ts, full, second };
    });
    assert.deepEqual(r.errors, ['TypeError', 'TypeError', 'TypeError', 'RangeError']);
    for (const t of [r.ta, r.tb, r.ts]) checkIntegrity(t);
    assert.ok(r.ta.samples.length > r.tb.samples.length, `${r.ta.samples.length} vs ${r.tb.samples.length}`);
    assert.ok(r.tb.samples.length >= 5);
    assert.equal(r.ts.samples.length, 3);
    assert.equal(r.full, 1);
    assert.equal(r.second, 'InvalidStateError');
  } finally {
    await page.close();
  }
});

test('dedicated workers (module and classic) profile themselves', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(`${base}/e2e/pages/fidelity/worker.html`);
    for (const kind of ['module', 'classic']) {
      const data = await page.evaluate((k) => window.runWorker(k), kind);
      const frames = checkWorkerTrace(kind, data);
      if (kind === 'module')
        assert.ok(
          frames.some((f) => f.name === 'partA' && f.line === 3 && f.column === 22),
          JSON.stringify(frames),
        );
    }
  } finally {
    await page.close();
  }
});

test("RuntimeProfiler: the proposal's example, with definition lines", async () => {
  const page = await browser.newPage();
  try {
    await page.goto(`${base}/e2e/pages/runtime-example.html`);
    await page.waitForFunction(() => window.result !== undefined, { timeout: 30_000 });
    const { results } = await page.evaluate(() => window.result);
    const file = `${base}/e2e/pages/runtime-example.js`;
    assert.equal(results.children.length, 1);
    const top = results.children[0];
    assert.deepEqual(top.function, { file, line: 1, name: '<top level>' });
    const foos = top.children.filter((c) => c.function.name === 'foo');
    assert.deepEqual(
      foos.map((f) => [f.function, f.site]),
      [19, 20].map((line) => [
        { file, line: 4, name: 'foo' },
        { file, line },
      ]),
    );
    const bar = top.children.find((c) => c.function.name === 'bar');
    assert.deepEqual(bar.function, { file, line: 12, name: 'bar' });
    assert.ok(results.samples > 40, `${results.samples} samples`);
  } finally {
    await page.close();
  }
});
// The no-build-step cases (drop-in, data-dense, platform sample points): nobuild.test.mjs.
