// The Profiler polyfill in Node (V8 stacks, no DOM): IDL argument handling,
// sampling at probe sites, buffer limits, several sessions, trace integrity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as webprof from 'webprof';

const { Profiler } = webprof;
await webprof.ready;
await webprof.loadExporters(); // some exports here come without a Profiler's stop()

const step = webprof.wrap(function stepWork(x) {
  return x + 1;
});
function busyWork(ms) {
  let x = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) x = step(x);
  return x;
}

// Every id in range, parents before children, timestamps ordered.
function assertIntegrity(trace) {
  for (const f of trace.frames) {
    assert.equal(typeof f.name, 'string');
    if (f.resourceId !== undefined) assert.ok(f.resourceId < trace.resources.length);
    assert.ok(!f.name.includes('__webprof$'), `own frame leaked: ${f.name}`);
  }
  trace.stacks.forEach((s, i) => {
    assert.ok(s.frameId < trace.frames.length);
    if (s.parentId !== undefined) assert.ok(s.parentId < i);
  });
  let last = -Infinity;
  for (const s of trace.samples) {
    assert.ok(s.timestamp >= last);
    last = s.timestamp;
    if (s.stackId !== undefined) assert.ok(s.stackId < trace.stacks.length);
  }
}

test('missing options are TypeErrors, a negative interval a RangeError', () => {
  assert.throws(() => new Profiler(), TypeError);
  assert.throws(() => new Profiler({ sampleInterval: 1 }), TypeError);
  assert.throws(() => new Profiler({ maxBufferSize: 10 }), TypeError);
  assert.throws(() => new Profiler(5), TypeError);
  assert.throws(() => new Profiler({ sampleInterval: -1, maxBufferSize: 10 }), RangeError);
  assert.throws(() => new Profiler({ sampleInterval: NaN, maxBufferSize: 10 }), TypeError);
  assert.throws(() => new Profiler({ sampleInterval: 1, maxBufferSize: 1, backend: 'x' }), TypeError);
});

test("backend 'native' without a native Profiler is NotSupportedError", () => {
  assert.throws(
    () => new Profiler({ sampleInterval: 10, maxBufferSize: 10, backend: 'native' }),
    (e) => e instanceof DOMException && e.name === 'NotSupportedError',
  );
});

test('samples at probe sites name the running function; idle samples have no stack', async () => {
  const before = performance.now();
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
  assert.equal(p.backend, 'polyfill');
  assert.equal(p.sampleInterval, 1);
  assert.equal(p.stopped, false);
  busyWork(30);
  // Idle: the sampler's timer (due every 1 ms) fires during this wait.
  await new Promise((r) => setTimeout(r, 60));
  const trace = await p.stop();
  const after = performance.now();
  assert.equal(p.stopped, true);
  assertIntegrity(trace);
  assert.ok(trace.samples.length > 1, `samples: ${trace.samples.length}`);
  for (const s of trace.samples) assert.ok(s.timestamp >= before && s.timestamp <= after);
  const busy = trace.frames.findIndex((f) => f.name === 'busyWork');
  assert.ok(busy >= 0, JSON.stringify(trace.frames));
  assert.ok(trace.resources[trace.frames[busy].resourceId].endsWith('/tests/js/profiler.test.mjs'));
  assert.ok(trace.frames[busy].line > 0 && trace.frames[busy].column > 0);
  assert.ok(
    trace.samples.some((s) => s.stackId === undefined),
    'idle samples while awaiting the timer',
  );
  assert.ok(trace.samples.some((s) => s.stackId !== undefined));
});

test('a second stop() rejects with InvalidStateError; samples after stop are not kept', async () => {
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 1000 });
  busyWork(5);
  const t1 = await p.stop();
  await assert.rejects(p.stop(), (e) => e instanceof DOMException && e.name === 'InvalidStateError');
  busyWork(5);
  assert.ok(t1.samples.length > 0);
});

test('maxBufferSize is exact (unsigned long), samplebufferfull fires on the full profiler only', async () => {
  const small = new Profiler({ sampleInterval: 1, maxBufferSize: 2 ** 32 + 3 }); // -> 3
  const big = new Profiler({ sampleInterval: 1, maxBufferSize: 100000 });
  let fullSmall = 0;
  let fullBig = 0;
  small.addEventListener('samplebufferfull', () => fullSmall++);
  big.addEventListener('samplebufferfull', () => fullBig++);
  // Run until the small buffer overflows (a condition, not a duration: the
  // machine may be loaded).
  for (let i = 0; i < 300 && !small.stopped; i++) busyWork(10);
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(small.stopped, true);
  assert.equal(big.stopped, false);
  // stopped in the other order than created
  const tb = await big.stop();
  const ts = await small.stop();
  assert.equal(ts.samples.length, 3);
  assert.equal(fullSmall, 1);
  assert.equal(fullBig, 0);
  assert.ok(tb.samples.length > 3);
  assertIntegrity(ts);
  assertIntegrity(tb);
});

// Samples are taken at once and their stacks formatted later, in batches:
// at stop(), in idle time, and past a bound on pending captures (512).
test('a busy stretch past the pending bound: every sample keeps its own stack, in order', async () => {
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 700 });
  let fired = 0;
  p.addEventListener('samplebufferfull', () => fired++);
  // Two phases with different leaf functions, synchronous (no idle time):
  // the first phase's captures are resolved by the bound, in the page's time.
  function phaseOne(ms) {
    return busyWork(ms);
  }
  function phaseTwo(ms) {
    return busyWork(ms);
  }
  let switchedAt = Infinity;
  for (let i = 0; i < 3000 && !p.stopped; i++) {
    if (i === 600) switchedAt = performance.now();
    (i < 600 ? phaseOne : phaseTwo)(1);
  }
  assert.equal(p.stopped, true);
  const t = await p.stop();
  assert.equal(t.samples.length, 700);
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(fired, 1);
  assertIntegrity(t);
  const names = (s) => {
    const out = [];
    for (let id = s.stackId; id !== undefined; id = t.stacks[id].parentId)
      out.push(t.frames[t.stacks[id].frameId].name);
    return out;
  };
  for (const s of t.samples) {
    assert.notEqual(s.stackId, undefined);
    const want = s.timestamp < switchedAt ? 'phaseOne' : 'phaseTwo';
    assert.ok(names(s).includes(want), `sample at ${s.timestamp}: ${names(s).join(' < ')}`);
  }
});

test("stacks captured before a page sets Error.prepareStackTrace are formatted in V8's own format", async () => {
  let calls = 0;
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
  busyWork(20);
  Error.prepareStackTrace = () => {
    calls++;
    return 'not a stack';
  };
  try {
    const t = await p.stop();
    assert.ok(t.frames.some((f) => f.name === 'busyWork'));
    assert.ok(t.samples.every((s) => s.stackId !== undefined));
    assert.equal(calls, 0);
  } finally {
    delete Error.prepareStackTrace;
  }
});

test('a page that deleted Error.stackTraceLimit still gets stacks, and its choice stays', async () => {
  const saved = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit');
  delete Error.stackTraceLimit;
  try {
    const p = new Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
    busyWork(10);
    const t = await p.stop();
    assert.ok(t.frames.some((f) => f.name === 'busyWork'));
    assert.ok(t.samples.every((s) => s.stackId !== undefined));
    assert.equal('stackTraceLimit' in Error, false);
  } finally {
    Object.defineProperty(Error, 'stackTraceLimit', saved);
  }
});

test('two concurrent profilers, each with its own buffer', async () => {
  const a = new Profiler({ sampleInterval: 1, maxBufferSize: 1000 });
  busyWork(5);
  const b = new Profiler({ sampleInterval: 2, maxBufferSize: 1000 });
  assert.equal(b.sampleInterval, 2);
  busyWork(10);
  const ta = await a.stop();
  busyWork(5);
  const tb = await b.stop();
  assert.ok(ta.samples.length > 0 && tb.samples.length > 0);
  // a ran longer before b started: its first sample is earlier
  assert.ok(ta.samples[0].timestamp <= tb.samples[0].timestamp);
  assertIntegrity(ta);
  assertIntegrity(tb);
});

test('wrap() and instrument() keep behaviour', () => {
  const o = {
    k: 2,
    mul(x) {
      return x * this.k;
    },
  };
  webprof.instrument(o);
  assert.equal(o.mul(3), 6);
  class K {
    constructor(v) {
      this.v = v;
    }
  }
  const W = webprof.wrap(K);
  assert.equal(new W(4).v, 4);
  assert.equal(webprof.wrap(W), W, 'wrapping a wrapper is the identity');
  assert.throws(() => webprof.wrap(1), TypeError);
});

test('importTrace loads a native-shaped trace through the core interning', () => {
  const native = {
    resources: ['https://a.test/app.js'],
    frames: [
      { name: 'main', resourceId: 0, line: 1, column: 1 },
      { name: 'work', resourceId: 0, line: 5, column: 3 },
    ],
    // Chromium may repeat a (frame, parent) pair; the core merges them.
    stacks: [{ frameId: 0 }, { frameId: 1, parentId: 0 }, { frameId: 1, parentId: 0 }],
    samples: [{ timestamp: 1, stackId: 1 }, { timestamp: 2, stackId: 2 }, { timestamp: 3 }],
  };
  const t = webprof.importTrace(native);
  assert.deepEqual(t.stacks, [{ frameId: 0 }, { frameId: 1, parentId: 0 }]);
  assert.deepEqual(
    t.samples.map((s) => s.stackId),
    [1, 1, undefined],
  );
  assert.deepEqual(t.frames, native.frames);
});

test("importTrace drops webprof's own frames and keeps the callers", () => {
  const t = webprof.importTrace({
    resources: ['https://a.test/app.js', 'https://a.test/webprof.mjs'],
    frames: [
      { name: 'main', resourceId: 0, line: 1, column: 1 },
      { name: '__webprof$wrap', resourceId: 1, line: 9, column: 9 },
      { name: 'work', resourceId: 0, line: 5, column: 3 },
    ],
    stacks: [{ frameId: 0 }, { frameId: 1, parentId: 0 }, { frameId: 2, parentId: 1 }, { frameId: 1 }],
    samples: [
      { timestamp: 1, stackId: 2 },
      { timestamp: 2, stackId: 3 },
    ],
  });
  assert.deepEqual(
    t.frames.map((f) => f.name),
    ['main', 'work'],
  );
  assert.deepEqual(t.stacks, [{ frameId: 0 }, { frameId: 1, parentId: 0 }]);
  assert.deepEqual(t.samples, [{ timestamp: 1, stackId: 1 }, { timestamp: 2 }]);
});

// Issue 18 item 4: a self-parented stack ended Node with a V8 fatal error in
// importTrace (an endless walk up the stack) and hung summarize(). The core's
// loader refuses any parent that is not an earlier row, with its own status.
test('importTrace and summarize refuse cyclic and forward stacks with a clear error', () => {
  const trace = (stacks) => ({
    resources: ['https://a.test/app.js'],
    frames: [
      { name: 'main', resourceId: 0, line: 1, column: 1 },
      { name: 'work', resourceId: 0, line: 5, column: 3 },
    ],
    stacks,
    samples: [{ timestamp: 1, stackId: 1 }],
  });
  const refused = {
    name: 'WebprofError',
    code: 'ParentNotBefore',
    message: /profile\.stacks: .*earlier stack/,
  };
  const self = trace([{ frameId: 0 }, { frameId: 1, parentId: 1 }]);
  assert.throws(() => webprof.importTrace(self), refused);
  assert.throws(() => webprof.summarize(self), { name: 'WebprofError', code: 'ParentNotBefore' });
  const cycle = trace([
    { frameId: 0, parentId: 1 },
    { frameId: 1, parentId: 0 },
  ]);
  assert.throws(() => webprof.importTrace(cycle), refused);
  assert.throws(() => webprof.summarize(cycle), { name: 'WebprofError', code: 'ParentNotBefore' });
  const forward = trace([{ frameId: 1, parentId: 1 }, { frameId: 0 }]);
  assert.throws(() => webprof.importTrace(forward), refused);
  // The exporters load through the same loader: the same refusal.
  assert.throws(() => webprof.toCpuProfile({ profile: self }), refused);
  // Nothing was left half-loaded: a good trace still imports.
  assert.equal(
    webprof.importTrace(trace([{ frameId: 0 }, { frameId: 1, parentId: 0 }])).samples[0].stackId,
    1,
  );
});

// Chromium's trace of two concurrent native profilers holds samples out of
// time order (seen in CI); the core's loader orders them (stable) as it
// imports, and an export of the same object still refuses them.
test('importTrace orders samples a native profiler wrote out of time order', () => {
  const native = {
    resources: ['https://x.test/a.js'],
    frames: [{ name: 'f', resourceId: 0, line: 1, column: 1 }],
    stacks: [{ frameId: 0 }],
    samples: [
      { timestamp: 5, stackId: 0 },
      { timestamp: 9 },
      { timestamp: 3, stackId: 0 },
      { timestamp: 9, stackId: 0 },
    ],
  };
  const t = webprof.importTrace(native);
  assert.deepEqual(
    t.samples.map((s) => [s.timestamp, s.stackId]),
    [
      [3, 0],
      [5, 0],
      [9, undefined],
      [9, 0],
    ],
  );
  assert.throws(() => webprof.toCpuProfile({ profile: native }), /earlier than the previous sample/);
});

test('explicit probes are sample sites while a window records; their own frames are removed', async () => {
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
  webprof.start();
  function probeUser(ms) {
    const end = performance.now() + ms;
    while (performance.now() < end) webprof.aggrEnd(webprof.aggrStart('work'));
  }
  probeUser(30);
  webprof.end(() => {});
  const trace = await p.stop();
  assertIntegrity(trace);
  assert.ok(
    trace.frames.some((f) => f.name === 'probeUser'),
    JSON.stringify(trace.frames.map((f) => f.name)),
  );
  assert.deepEqual(
    trace.resources.filter((r) => r.includes('/dist/')),
    [],
    'no frame of webprof itself',
  );
});

test("a stopped Profiler's trace stays in the core: exported in place until released", async () => {
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 10_000, backend: 'polyfill' });
  busyWork(30);
  const trace = await p.stop();
  assert.ok(trace.samples.length > 0);
  const copy = structuredClone(trace); // a plain object: loaded through the core
  const bytes = (t) => new Uint8Array(webprof.toChromeTrace({ profile: t }));
  assert.deepEqual(bytes(trace), bytes(copy));
  // In place: the core's copy is written, not the object (the ownership
  // contract), so an edit that keeps the table lengths does not show...
  const first = trace.samples[0].timestamp;
  trace.samples[0].timestamp = first - 1000;
  assert.deepEqual(bytes(trace), bytes(copy));
  trace.samples[0].timestamp = first;
  // ...and one that changes them makes the object be loaded instead.
  trace.samples.push({ timestamp: trace.samples.at(-1).timestamp + 1 });
  copy.samples.push({ timestamp: copy.samples.at(-1).timestamp + 1 });
  assert.deepEqual(bytes(trace), bytes(copy));
  trace.samples.pop();
  copy.samples.pop();
  assert.equal(webprof.releaseTrace(trace), true);
  assert.equal(webprof.releaseTrace(trace), false);
  assert.equal(webprof.releaseTrace(copy), false);
  assert.deepEqual(bytes(trace), bytes(copy)); // now loaded from the object
  const imported = webprof.importTrace(copy);
  assert.equal(webprof.releaseTrace(imported), true);
});
