// Field collection in Node (js/field/): the once-per-load decision and its
// fraction, and the reporter's whole path to a real HTTP endpoint — the
// polyfill profiles wrapped work, the core trims (no idle sample, the
// sample cap, maxBytes), CompressionStream gzips, fetch posts — with every
// failure counted in diagnostics instead of thrown.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import '../support/js-core.mjs';
import { ready, wrap, loadExporters } from '../../js/index.mjs';
import { collectProfiles, resetFieldCollection } from '../../js/field/collect.mjs';
import { decideSampled, seedFraction } from '../../js/field/decide.mjs';
import { trimTrace } from '../../js/field/payload.mjs';
import { sessions } from '../../js/profiler/session.mjs';

await ready;
await loadExporters(); // trimTrace without a Profiler's stop()

// An endpoint that records each POST body and answers `status`.
const received = [];
let status = 204;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(status);
    res.end(status >= 400 ? 'no thanks' : '');
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const endpoint = `http://127.0.0.1:${server.address().port}/ingest`;
after(() => server.close());

const step = wrap(function hotStep(x) {
  return (x * 31 + 7) % 1000003;
});
function hotLoop(ms) {
  let x = 1;
  const end = performance.now() + ms;
  while (performance.now() < end) x = step(x);
  return x;
}
const idle = (ms) => new Promise((r) => setTimeout(r, ms));

test('the decision: a fraction of seeds near sampleRate, the same seed the same answer, forced when asked', () => {
  for (const rate of [0.01, 0.1, 0.5]) {
    let n = 0;
    const N = 40_000;
    for (let i = 0; i < N; i++) if (decideSampled({ sampleRate: rate, seed: `session-${i}` })) n++;
    // Binomial: 5 standard deviations.
    const sd = Math.sqrt((rate * (1 - rate)) / N);
    assert.ok(Math.abs(n / N - rate) < 5 * sd, `rate ${rate}: ${n / N}`);
  }
  for (let i = 0; i < 100; i++) {
    const seed = `user-${i}`;
    assert.equal(decideSampled({ sampleRate: 0.3, seed }), seedFraction(seed) < 0.3);
    assert.equal(decideSampled({ sampleRate: 0.3, seed }), decideSampled({ sampleRate: 0.3, seed }));
  }
  assert.equal(decideSampled({ sampleRate: 0, seed: 'x', sampled: true }), true);
  assert.equal(decideSampled({ sampleRate: 1, sampled: false }), false);
  assert.equal(decideSampled({ sampleRate: 1 }), true);
  assert.equal(decideSampled({ sampleRate: 0 }), false);
  assert.equal(decideSampled({ sampleRate: NaN }), false);
  assert.equal(decideSampled({ sampleRate: 7 }), true);
  // Without a seed, Math.random decides.
  const random = Math.random;
  try {
    Math.random = () => 0.2;
    assert.equal(decideSampled({ sampleRate: 0.25 }), true);
    Math.random = () => 0.3;
    assert.equal(decideSampled({ sampleRate: 0.25 }), false);
  } finally {
    Math.random = random;
  }
});

test('once per load: a second call returns the first collector and counts it; bad options never throw', () => {
  resetFieldCollection();
  const first = collectProfiles({ endpoint, sampleRate: 0 });
  assert.equal(first.sampled, false);
  assert.equal(first.state, 'off');
  const second = collectProfiles({ endpoint, sampled: true });
  assert.equal(second, first);
  assert.equal(second.sampled, false);
  assert.equal(first.diagnostics.failures, 1);
  assert.match(first.diagnostics.errors[0], /called again/);

  for (const bad of [
    undefined,
    null,
    {},
    { endpoint: 5 },
    { endpoint, maxBytes: -1 },
    { endpoint, metadata: 1n },
    { endpoint, seed: { id: 7 } },
  ]) {
    resetFieldCollection();
    const c = collectProfiles(bad);
    assert.equal(c.state, 'failed', JSON.stringify(String(bad)));
    assert.equal(c.diagnostics.failures, 1);
  }
  resetFieldCollection();
});

test('a profiled load sends one gzipped webprof-field/1 payload with no idle sample when the duration ends', async () => {
  resetFieldCollection();
  received.length = 0;
  status = 204;
  const c = collectProfiles({
    endpoint,
    sampled: true,
    sampleInterval: 1,
    maxDurationMs: 400,
    release: 'r-1.2',
    metadata: { route: '/home' },
  });
  assert.equal(c.state, 'profiling');
  assert.equal(c.diagnostics.sampler, 'polyfill');
  hotLoop(120);
  await idle(60); // idle samples (the polyfill's timer) that must not be sent
  hotLoop(120);
  await idle(500);
  const d = await c.flush(); // already flushed by the timer: the same promise
  assert.deepEqual(d.errors, []);
  assert.equal(d.state, 'sent');
  assert.equal(d.reason, 'duration');
  assert.equal(d.transport, 'fetch-keepalive');
  assert.equal(d.status, 204);
  assert.equal(received.length, 1);
  const body = received[0].body;
  assert.equal(body[0], 0x1f);
  assert.equal(body[1], 0x8b);
  assert.equal(d.compressed, true);
  assert.equal(d.bytes, body.length);
  assert.equal(received[0].headers['content-type'], undefined);
  const doc = JSON.parse(gunzipSync(body));
  assert.equal(doc.format, 'webprof-field/1');
  assert.equal(doc.release, 'r-1.2');
  assert.equal(doc.sampler, 'polyfill');
  assert.equal(doc.sampleInterval, 1);
  assert.equal(doc.reason, 'duration');
  assert.deepEqual(doc.metadata, { route: '/home' });
  assert.equal(typeof doc.userAgent, 'string');
  // 240 ms of hot loop, wall-clock bound: a machine at load average 13 on
  // 2 cores gave it 19-20 samples (the bound was 20).
  assert.ok(doc.trace.samples.length >= 8, `${doc.trace.samples.length} samples`);
  assert.ok(
    doc.trace.samples.every((s) => s.stackId !== undefined),
    'an idle sample was sent',
  );
  assert.ok(d.idleDropped > 0, 'the idle stretch had samples');
  assert.deepEqual(doc.samples, {
    recorded: d.recorded,
    sent: doc.trace.samples.length,
    idleDropped: d.idleDropped,
    thinnedDropped: d.thinnedDropped,
  });
  assert.equal(d.recorded, d.sent + d.idleDropped + d.thinnedDropped);
  const names = new Set(doc.trace.frames.map((f) => f.name));
  assert.ok(names.has('hotStep') || names.has('hotLoop'), [...names].join(', '));
  // Only rows the samples reach: every frame is on some sampled stack.
  const reached = new Set();
  for (const s of doc.trace.samples)
    for (let id = s.stackId; id !== undefined; id = doc.trace.stacks[id].parentId)
      reached.add(doc.trace.stacks[id].frameId);
  assert.equal(reached.size, doc.trace.frames.length);
  resetFieldCollection();
});

test("the collector's timer and listeners are webprof's own, not the page's later setTimeout / addEventListener", async () => {
  // A page (zone.js, a framework's scheduler) may wrap the timers after
  // webprof loads; the collector's duration timer must not run through it.
  resetFieldCollection();
  received.length = 0;
  status = 204;
  const pageSetTimeout = globalThis.setTimeout;
  const pageClearTimeout = globalThis.clearTimeout;
  const fromCollector = [];
  const seen = () => {
    const stack = String(new Error().stack);
    if (stack.includes('field/collect.mjs')) fromCollector.push(stack);
  };
  globalThis.setTimeout = function (...args) {
    seen();
    return pageSetTimeout.apply(this, args);
  };
  globalThis.clearTimeout = function (...args) {
    seen();
    return pageClearTimeout.apply(this, args);
  };
  try {
    const c = collectProfiles({ endpoint, sampled: true, sampleInterval: 1, maxDurationMs: 80 });
    hotLoop(20);
    await new Promise((r) => pageSetTimeout(r, 200));
    const d = await c.flush();
    assert.equal(d.reason, 'duration', JSON.stringify(d));
    assert.equal(received.length, 1);
  } finally {
    globalThis.setTimeout = pageSetTimeout;
    globalThis.clearTimeout = pageClearTimeout;
    resetFieldCollection();
  }
  assert.deepEqual(fromCollector, []);
});

test('maxBytes thins the samples until the gzip fits; a payload that cannot fit is counted, not sent', async () => {
  resetFieldCollection();
  received.length = 0;
  const c = collectProfiles({
    endpoint,
    sampled: true,
    sampleInterval: 1,
    maxDurationMs: 60_000,
    maxBytes: 600,
  });
  hotLoop(700);
  const d = await c.flush();
  assert.deepEqual(d.errors, []);
  assert.equal(d.reason, 'flush');
  assert.ok(d.bytes <= 600, `${d.bytes} bytes`);
  assert.ok(d.thinnedDropped > 0, JSON.stringify(d));
  assert.equal(received.length, 1);
  assert.ok(received[0].body.length <= 600);

  resetFieldCollection();
  received.length = 0;
  const tiny = collectProfiles({
    endpoint,
    sampled: true,
    sampleInterval: 1,
    maxDurationMs: 60_000,
    maxBytes: 40,
  });
  hotLoop(50);
  const t = await tiny.flush();
  assert.equal(t.state, 'failed');
  assert.equal(received.length, 0);
  assert.equal(t.failures, 1);
  assert.match(t.errors[0], /over maxBytes 40: not sent/);
  resetFieldCollection();
});

test("an endpoint's error answer and an unreachable endpoint are counted with their reason", async () => {
  resetFieldCollection();
  status = 503;
  const c = collectProfiles({ endpoint, sampled: true, sampleInterval: 1, maxDurationMs: 60_000 });
  hotLoop(30);
  const d = await c.flush();
  assert.equal(d.state, 'failed');
  assert.equal(d.status, 503);
  assert.match(d.errors[0], /answered 503: no thanks/);
  status = 204;

  resetFieldCollection();
  const gone = collectProfiles({
    endpoint: 'http://127.0.0.1:9/ingest',
    sampled: true,
    maxDurationMs: 60_000,
  });
  hotLoop(20);
  const g = await gone.flush();
  assert.equal(g.state, 'failed');
  assert.equal(g.failures, 1);
  resetFieldCollection();
});

test('a maxDurationMs past what a timer holds (2^31 - 1 ms) still profiles until flushed', async () => {
  resetFieldCollection();
  received.length = 0;
  status = 204;
  const c = collectProfiles({ endpoint, sampled: true, sampleInterval: 1, maxDurationMs: 2 ** 32 });
  hotLoop(30);
  await idle(30); // an overflowing timer would have fired by now
  assert.equal(c.state, 'profiling', JSON.stringify(c.diagnostics));
  const d = await c.flush();
  assert.deepEqual(d.errors, []);
  assert.equal(d.reason, 'flush');
  assert.equal(received.length, 1);
  resetFieldCollection();
});

test('a failure after the Profiler started stops it: nothing keeps sampling with no one to send', async () => {
  resetFieldCollection();
  const Observer = globalThis.PerformanceObserver;
  globalThis.PerformanceObserver = class {
    observe() {
      throw new TypeError("the type 'resource' is not supported");
    }
  };
  let c;
  try {
    c = collectProfiles({ endpoint, sampled: true, backend: 'polyfill', maxDurationMs: 60_000 });
  } finally {
    globalThis.PerformanceObserver = Observer;
  }
  assert.equal(c.state, 'failed');
  assert.match(c.diagnostics.errors[0], /'resource' is not supported/);
  await idle(20);
  assert.equal(sessions.length, 0, 'a polyfill session is still running');
  assert.equal((await c.flush()).state, 'failed');
  resetFieldCollection();
});

test('a compression that fails sends the JSON text, counted: no rejection is left unhandled in the page', async () => {
  resetFieldCollection();
  received.length = 0;
  status = 204;
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(String(e));
  process.on('unhandledRejection', onUnhandled);
  const Real = globalThis.CompressionStream;
  // A compressor failing mid-stream (aborted, out of memory): its write and
  // its read reject with the same error.
  let made = 0;
  globalThis.CompressionStream = class extends TransformStream {
    constructor() {
      made++;
      super({
        transform() {
          throw new Error('the compressor failed');
        },
      });
    }
  };
  try {
    const c = collectProfiles({ endpoint, sampled: true, sampleInterval: 1, maxDurationMs: 60_000 });
    hotLoop(30);
    const d = await c.flush();
    await idle(20); // an unhandled rejection is reported after the microtasks
    assert.deepEqual(unhandled, []);
    assert.equal(d.state, 'sent', JSON.stringify(d));
    assert.equal(d.compressed, false);
    assert.equal(made, 1, 'one failure is enough: the budget loop does not try again');
    assert.equal(d.failures, 1);
    assert.match(d.errors[0], /gzip failed \(the compressor failed\): sent as JSON text/);
    assert.equal(received.length, 1);
    assert.equal(received[0].body[0], '{'.charCodeAt(0));
    assert.equal(JSON.parse(received[0].body).format, 'webprof-field/1');
  } finally {
    globalThis.CompressionStream = Real;
    process.off('unhandledRejection', onUnhandled);
    resetFieldCollection();
  }
});

test('"page" is the URL without query, fragment or credentials; the scheme alone where the URL is the document', async () => {
  status = 204;
  // location as browsers give it: a sandboxed frame's origin is "null" but
  // its URL is real; a data: URL's path is the document's text.
  const cases = [
    [
      {
        href: 'https://ann:pw@shop.example:8443/cart/pay?card=4111#step2',
        origin: 'https://shop.example:8443',
      },
      'https://shop.example:8443/cart/pay',
    ],
    [{ href: 'https://shop.example/frame?token=abc', origin: 'null' }, 'https://shop.example/frame'],
    [{ href: 'data:text/html,<p>ann@example.com 4111</p>', origin: 'null' }, 'data:'],
    [{ href: 'about:blank', origin: 'null' }, 'about:blank'],
    [{ href: 'about:srcdoc', origin: 'https://shop.example' }, 'about:srcdoc'],
    [
      {
        href: 'blob:https://shop.example/6a1f0c2e-8b4d-4e7a-9c1b-2f3d4e5a6b7c',
        origin: 'https://shop.example',
      },
      'blob:https://shop.example',
    ],
    [{ href: 'file:///home/ann/report.html?q=1', origin: 'null' }, 'file:///home/ann/report.html'],
    [{ href: 'not a url', origin: 'null' }, ''],
  ];
  for (const [where, page] of cases) {
    resetFieldCollection();
    received.length = 0;
    const c = collectProfiles({ endpoint, sampled: true, sampleInterval: 1, maxDurationMs: 60_000 });
    hotLoop(5);
    const { href, origin } = where;
    const url = URL.canParse(href) ? new URL(href) : null;
    globalThis.location = { href, origin, pathname: url ? url.pathname : '' };
    let d;
    try {
      d = await c.flush();
    } finally {
      delete globalThis.location;
    }
    assert.deepEqual(d.errors, [], href);
    assert.equal(JSON.parse(gunzipSync(received[0].body)).page, page, href);
  }
  resetFieldCollection();
});

test('trimTrace: the core drops idle samples and caps the rest evenly', () => {
  const trace = {
    resources: ['https://a/app.js', 'https://a/unused.js'],
    frames: [
      { name: 'main', resourceId: 0, line: 1, column: 1 },
      { name: 'hot', resourceId: 0, line: 5, column: 3 },
      { name: 'cold', resourceId: 1, line: 9, column: 1 },
    ],
    stacks: [{ frameId: 0 }, { frameId: 1, parentId: 0 }, { frameId: 2, parentId: 0 }],
    samples: Array.from({ length: 100 }, (_, i) =>
      i % 4 === 0 ? { timestamp: i } : { timestamp: i, stackId: 1 },
    ),
  };
  const t = trimTrace(trace, { maxSamples: 15 });
  assert.equal(t.idleDropped, 25);
  assert.equal(t.thinnedDropped, 60);
  assert.deepEqual(t.trace.resources, ['https://a/app.js']);
  assert.deepEqual(
    t.trace.frames.map((f) => f.name),
    ['main', 'hot'],
  );
  assert.equal(t.trace.samples.length, 15);
  assert.ok(t.trace.samples.every((s) => s.stackId === 1));
  assert.ok(t.trace.samples[14].timestamp > 90);
});
