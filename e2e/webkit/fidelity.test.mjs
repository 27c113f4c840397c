// The sampling transform and dense mode in WebKit (JavaScriptCore): a bundle
// passed through the transform, inline scripts, dedicated workers and the
// drop-in's data-dense service worker, each sampled inside its functions,
// with frames at the definitions Chromium's native Profiler reports for the
// same functions (JSC's stacks give execution positions; the source scanner
// maps each to its function's definition).
// Run: node --test e2e/webkit/   (needs `npm run build:js` first)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchWebKit, webkitMissing } from '../../js/node/webkit.mjs';
import { startStaticServer } from '../server.mjs';
import { buildTransformed, checkIntegrity, checkWorkerTrace, framesOf } from '../fidelity-helpers.mjs';
import { pageProfile } from '../nobuild-helpers.mjs';

const missing = webkitMissing();
if (missing) console.log(`# WebKit fidelity SKIPPED: ${missing}`);
const wkTest = (name, fn) => test(name, missing ? { skip: missing } : {}, fn);
let server, wk, base;

before(async () => {
  if (missing) return;
  await buildTransformed('workload.mjs');
  await buildTransformed('split.mjs');
  server = await startStaticServer({ port: 0 });
  base = `http://127.0.0.1:${server.address().port}`;
  wk = await launchWebKit();
});
after(async () => {
  if (wk) await wk.close();
  if (server) server.close();
});

wkTest('transformed bundle and inline scripts: spec names at the native definitions', async () => {
  await wk.url(`${base}/e2e/pages/fidelity/side.html`);
  await wk.waitFor(() => window.pageReady === true);
  const { polyfill, backend } = await wk.execute((n) => window.polyfillOnly(n), 2);
  assert.equal(backend, 'polyfill');
  checkIntegrity(polyfill);
  const frames = framesOf(polyfill);
  const doc = `${base}/e2e/pages/fidelity/side.html`;
  const script = `${base}/build/e2e/fidelity/workload.mjs`;
  // The web-platform-tests' line/column cases, as Chromium's native Profiler
  // reports them (the `(` of the parameters).
  for (const want of [
    { name: 'decl', resource: script, line: 12, column: 14 },
    { name: 'K', resource: script, line: 34, column: 14 },
    { name: 'inlineOuter', resource: doc, line: 6, column: 23 },
    { name: 'inlineMiddle', resource: doc, line: 7, column: 26 },
    { name: 'inlineInner', resource: doc, line: 8, column: 27 },
  ])
    assert.ok(
      frames.some((f) => JSON.stringify(f) === JSON.stringify(want)),
      `missing ${JSON.stringify(want)} in ${JSON.stringify(frames)}`,
    );
  // JSC names an accessor by its key alone ("prop"); the spec's names come
  // from the scanner. Module code is strict, where JSC makes `return f()` a
  // proper tail call; the transform's exit check (try/finally) keeps every
  // function that ends so (decl, get prop, inner, f, …) on the stack.
  const names = new Set(frames.filter((f) => f.resource === script).map((f) => f.name));
  for (const n of ['get prop', 'set prop', 'K', 'Sub', 'method', 'f', 'quoted key', 'inner', 'deepest', ''])
    assert.ok(names.has(n), `no frame named ${JSON.stringify(n)} in ${[...names].join(', ')}`);
  assert.ok(!names.has('prop'), [...names].join(', '));
});

wkTest('dedicated workers (module and classic) profile themselves', async () => {
  await wk.url(`${base}/e2e/pages/fidelity/worker.html`);
  for (const kind of ['module', 'classic']) {
    const data = await wk.execute((k) => window.runWorker(k), kind);
    const frames = checkWorkerTrace(kind, data);
    if (kind === 'module')
      assert.ok(
        frames.some((f) => f.name === 'partA' && f.line === 3 && f.column === 22),
        JSON.stringify(frames),
      );
  }
});

wkTest(
  "the README's drop-in with data-dense: a reload samples inside the page's synchronous function",
  async () => {
    const url = `${base}/e2e/pages/dense/spin.html`;
    await wk.url(url);
    assert.equal(await wk.execute(() => window.webprof.denseReady), false);
    await wk.refresh();
    const r = await wk.execute(pageProfile, ['doWork']);
    assert.equal(r.denseReady, true, JSON.stringify(r));
    assert.ok(r.inside >= 10, JSON.stringify(r));
    assert.ok(r.inside / r.samples >= 0.5, JSON.stringify(r));
    assert.deepEqual(r.frames, [{ resource: url, line: 12, column: 18 }]);
  },
);
