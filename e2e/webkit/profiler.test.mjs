// The polyfill in WebKit (JavaScriptCore, Safari's engine: no native Profiler
// there), driven over W3C WebDriver by js/node/webkit.mjs (WebKitWebDriver
// under xvfb-run): the Chromium e2e's Profiler cases on the same pages, frame
// names as the spec gives them, RuntimeProfiler's example, a probes window and
// the three exports. One browser for the whole file (~5 s to start).
// Run: node --test e2e/webkit/   (needs `npm run build:js` first)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchWebKit, webkitMissing } from '../../js/node/webkit.mjs';
import { startStaticServer, redirectHook } from '../server.mjs';

// Absent driver: every test is reported skipped with the reason, never passed.
const missing = webkitMissing();
if (missing) console.log(`# WebKit e2e SKIPPED: ${missing}`);
const wkTest = (name, fn) => test(name, missing ? { skip: missing } : {}, fn);

let server, second, wk, base;

before(async () => {
  if (missing) return;
  server = await startStaticServer({ port: 0, hooks: [redirectHook] });
  // The cross-origin cases load scripts from the port after this one.
  second = await startStaticServer({ port: server.address().port + 1, hooks: [redirectHook] });
  base = `http://127.0.0.1:${server.address().port}`;
  wk = await launchWebKit();
});
after(async () => {
  if (wk) await wk.close();
  for (const s of [server, second]) if (s) s.close();
});

async function open(path) {
  await wk.url(base + path);
  await wk.waitFor(() => window.pageReady === true);
}

// Integrity, and timestamps within [now before construct, now after stop].
function check(result) {
  const { trace, before: t0, after: t1 } = result;
  assert.equal(result.backend, 'polyfill');
  trace.frames.forEach((f) => {
    if (f.resourceId !== undefined) assert.ok(f.resourceId < trace.resources.length);
    assert.ok(!f.name.includes('__webprof$'), f.name);
  });
  trace.stacks.forEach((s, i) => {
    assert.ok(s.frameId < trace.frames.length);
    if (s.parentId !== undefined) assert.ok(s.parentId < i);
  });
  let last = -Infinity;
  for (const s of trace.samples) {
    assert.ok(s.timestamp >= t0 && s.timestamp <= t1, `${s.timestamp} outside [${t0}, ${t1}]`);
    assert.ok(s.timestamp >= last, 'samples out of order');
    last = s.timestamp;
    if (s.stackId !== undefined) assert.ok(s.stackId < trace.stacks.length);
  }
  return trace;
}
const frameOf = (trace, name) => trace.frames.find((f) => f.name === name);
const profileCases = (ms) => wk.execute((m) => window.profile(() => window.runFrameCases(m)), ms);

wkTest('frame names: class method, get x, set x, declaration, named and anonymous expressions', async () => {
  await open('/e2e/pages/profiler/index.html');
  const cases = `${base}/e2e/pages/profiler/cases.js`;
  const wanted = ['area', 'get x', 'set x', 'declared', 'namedExpression', 'spin', 'runFrameCases'];
  const names = new Set();
  let anon, area;
  for (let attempt = 0; attempt < 4 && !(wanted.every((n) => names.has(n)) && anon); attempt++) {
    const trace = check(await profileCases(15));
    for (const f of trace.frames) names.add(f.name);
    anon ??= trace.frames.find((f) => f.name === '' && trace.resources[f.resourceId] === cases);
    const a = frameOf(trace, 'area');
    if (a) area = { ...a, resource: trace.resources[a.resourceId] };
  }
  for (const n of wanted) assert.ok(names.has(n), `no ${n} in ${[...names].join(', ')}`);
  // JSC's own spellings never leak into the spec's names.
  for (const n of names) assert.ok(!/[@<>]|^(get|set)(?! x$)/.test(n), n);
  // Definitions as Chromium places them: at the parameter list's `(` (1-based).
  assert.ok(anon, 'no anonymous frame');
  assert.deepEqual([anon.line, anon.column], [38, 19]);
  assert.deepEqual([area.resource, area.line, area.column], [cases, 15, 7]);
});

wkTest('inline functions are attributed to the document URL', async () => {
  await open('/e2e/pages/profiler/index.html');
  const trace = check(await wk.execute(() => window.profile(() => window.inlineWork(20))));
  const f = frameOf(trace, 'inlineWork');
  assert.ok(f, trace.frames.map((x) => x.name).join(', '));
  assert.equal(trace.resources[f.resourceId], `${base}/e2e/pages/profiler/index.html`);
  assert.deepEqual([f.line, f.column], [15, 22]);
});

for (const [fn, label] of [
  ['mutedWork', 'a no-cors cross-origin script'],
  ['redirectedWork', 'a same-origin URL redirected cross-origin'],
]) {
  wkTest(`${label}: no resources, frames or stacks, but samples`, async () => {
    await open('/e2e/pages/profiler/index.html');
    const trace = check(
      await wk.execute(
        (f) =>
          window.profile(
            () =>
              new Promise((done) => {
                setTimeout(window[f], 0, 60);
                setTimeout(done, 100);
              }),
          ),
        fn,
      ),
    );
    assert.ok(trace.samples.length > 0);
    assert.deepEqual(trace.resources, []);
    assert.deepEqual(trace.frames, []);
    assert.deepEqual(trace.stacks, []);
  });
}

wkTest('crossorigin + CORS: the cross-origin script is visible', async () => {
  await open('/e2e/pages/profiler/index.html');
  const trace = check(await wk.execute(() => window.profile(() => window.corsWork(30))));
  const f = frameOf(trace, 'corsWork');
  assert.ok(f);
  // JSC's stack URLs carry no query (`?cors`): the resource is the URL as the
  // engine reports it; the definition comes from the source the page loaded.
  assert.equal(
    trace.resources[f.resourceId],
    `http://127.0.0.1:${server.address().port + 1}/e2e/pages/profiler/cors-lib.js`,
  );
  assert.deepEqual([f.line, f.column], [2, 18]);
});

wkTest("a child iframe's functions are not in the parent's trace", async () => {
  await open('/e2e/pages/profiler/index.html');
  await wk.waitFor(() => window.frames[0] && window.frames[0].childWork);
  const trace = check(await wk.execute(() => window.profile(() => window.frames[0].childWork(30))));
  assert.ok(trace.samples.length > 0);
  assert.equal(frameOf(trace, 'childWork'), undefined);
  assert.deepEqual(
    trace.resources.filter((u) => u.includes('child.html')),
    [],
  );
});

wkTest('maxBufferSize exact, samplebufferfull only on the full profiler; concurrent profilers', async () => {
  await open('/e2e/pages/profiler/index.html');
  const r = await wk.execute(async () => {
    const P = window.webprof.Profiler;
    const small = new P({ sampleInterval: 1, maxBufferSize: 3, backend: 'polyfill' });
    const big = new P({ sampleInterval: 1, maxBufferSize: 100000, backend: 'polyfill' });
    const coarse = new P({ sampleInterval: 10, maxBufferSize: 100000, backend: 'polyfill' });
    const fired = { small: 0, big: 0 };
    small.addEventListener('samplebufferfull', () => fired.small++);
    big.addEventListener('samplebufferfull', () => fired.big++);
    window.runFrameCases(15);
    await new Promise((res) => setTimeout(res, 30));
    const stopped = [small.stopped, big.stopped];
    // Stopped in the other order than started.
    const tc = await coarse.stop();
    const tb = await big.stop();
    const ts = await small.stop();
    const second = await big.stop().then(
      () => 'resolved',
      (e) => `${e.constructor.name}:${e.name}`,
    );
    const n = (t) => t.samples.length;
    return { fired, stopped, small: n(ts), big: n(tb), coarse: n(tc), second };
  });
  assert.equal(r.small, 3);
  assert.deepEqual(r.fired, { small: 1, big: 0 });
  assert.deepEqual(r.stopped, [true, false]);
  assert.ok(r.big > r.coarse && r.coarse >= 3, JSON.stringify(r));
  assert.equal(r.second, 'DOMException:InvalidStateError');
});

wkTest("RuntimeProfiler: the proposal's example, with definition lines", async () => {
  await wk.url(`${base}/e2e/pages/runtime-example.html`);
  const { results } = await wk.waitFor(() => window.result, { timeout: 30_000 });
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
  assert.deepEqual(bar.children.find((c) => c.function.name === 'foo').site, { file, line: 14 });
  assert.ok(results.samples > 40, `${results.samples} samples`);
});

wkTest('probes: a window with framework and user probes, a reporter and percentiles', async () => {
  await open('/e2e/pages/probes.html');
  await wk.execute(() => document.getElementById('b').click());
  const r = await wk.execute(() => window.finish());
  const click = r.aggregates['event:click'];
  assert.equal(click.count, 1);
  // The page waits until performance.now() >= t0 + 70, rounded as a double:
  // end - start can then be 70 less an ulp (69.99999999999999 seen once).
  assert.ok(click.max >= 70 - 1e-9, JSON.stringify(click));
  // p99 of one value is that value, within the histogram's resolution.
  assert.ok(Math.abs(click.p99 - click.max) <= click.max / 128, JSON.stringify(click));
  assert.ok(click.p50 <= click.p99);
  assert.ok(r.aggregates['task:timeout'].count >= 1);
  assert.ok(r.aggregates['task:raf'].count >= 1);
  assert.equal(r.aggregates['user:compute'].count, 1);
  // WebKit has no Long Tasks API: no longtask entries (documented difference).
  assert.equal(r.aggregates.longtask, undefined);
  assert.deepEqual(r.marks[0], ['start', null]);
  assert.deepEqual(r.marks[1], ['page:start', { route: '/e2e/pages/probes.html' }]);
  assert.deepEqual(r.marks.at(-1), ['end', null]);
  assert.deepEqual(r.traces.find((t) => t[0] === 'click:work')[1], { kind: 'busy' });
});

wkTest('the three exports of a WebKit profile: Chrome trace, .cpuprofile, Perfetto', async () => {
  await open('/e2e/pages/profiler/index.html');
  const r = await wk.execute(async () => {
    const w = window.webprof;
    const { trace } = await window.profile(() => window.runFrameCases(10));
    const text = (b) => new TextDecoder().decode(b);
    const pf = new Uint8Array(w.toPerfettoTrace({ profile: trace }));
    return {
      samples: trace.samples.length,
      chrome: JSON.parse(text(w.toChromeTrace({ profile: trace }))),
      cpu: JSON.parse(text(w.toCpuProfile({ profile: trace }))),
      perfetto: { head: pf[0], size: pf.length, hasArea: text(pf).includes('area') },
    };
  });
  assert.ok(r.samples > 10);
  const cpuNames = new Set(r.cpu.nodes.map((n) => n.callFrame.functionName));
  for (const n of ['area', 'get x', 'set x', 'declared']) assert.ok(cpuNames.has(n), n);
  assert.equal(r.cpu.samples.length, r.samples);
  assert.ok(Array.isArray(r.chrome.traceEvents) && r.chrome.traceEvents.length > 0);
  assert.ok(JSON.stringify(r.chrome).includes('"area"'));
  assert.equal(r.perfetto.head, 0x0a); // Trace.packet, length-delimited
  assert.ok(r.perfetto.hasArea);
});
