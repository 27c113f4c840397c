// RuntimeProfiler (seed 002) in Node: one test per method and per error case
// of the proposal. No timing asserts: sampling loops run until the core has
// counted the samples they need.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as webprof from 'webprof';

await webprof.ready;
const { RuntimeProfiler, probe, WebprofError } = webprof;

const open = [];
function profiler() {
  const p = new RuntimeProfiler();
  open.push(p);
  return p;
}
afterEach(() => {
  // Leave the runtime unprofiled and empty for the next test.
  for (const p of open.splice(0)) {
    try {
      p.stop();
    } catch {
      // this one was not profiling
    }
  }
  const clean = new RuntimeProfiler();
  clean.start();
  clean.reset();
  clean.stop();
});

// Runs sampling points until the runtime holds `n` more samples.
function spinSamples(n) {
  const target = RuntimeProfiler.stats().samples + n;
  while (RuntimeProfiler.stats().samples < target) probe();
}
function foo(n) {
  spinSamples(n);
}
function bar(n) {
  foo(n);
}

function checkInvariant(node, path = 'root') {
  const sum = node.children.reduce((s, c) => s + c.samples, 0);
  assert.equal(node.samples, node.selfCount + sum, `samples = selfCount + Σ children at ${path}`);
  node.children.forEach((c, i) => checkInvariant(c, `${path}/${c.function.name || '?'}#${i}`));
}
const find = (node, name) => node.children.filter((c) => c.function.name === name);
// The first node (depth first) that has a child named `name`: under Node's
// test runner the test function sits below the runner's own frames.
function parentOf(node, name) {
  if (find(node, name).length) return node;
  for (const c of node.children) {
    const hit = parentOf(c, name);
    if (hit) return hit;
  }
  return null;
}

test('constructor takes no arguments; nothing is profiled before start()', () => {
  const p = profiler();
  assert.equal(RuntimeProfiler.length, 0);
  assert.equal(p.isProfiling(), false);
  assert.deepEqual(p.results(), { samples: 0, selfCount: 0, children: [] });
});

test('start() then isProfiling() is true; stop() turns it off', () => {
  const p = profiler();
  p.start();
  assert.equal(p.isProfiling(), true);
  assert.equal(p.isProfiling(globalThis), true, 'obj = this runtime');
  p.stop();
  assert.equal(p.isProfiling(), false);
});

test('results(): a call tree with foo at its two call sites and bar → foo', () => {
  const p = profiler();
  p.start(undefined, 50);
  foo(3); // call site A
  foo(6); // call site B
  bar(4);
  p.stop();
  const r = p.results();
  checkInvariant(r);
  assert.equal(r.samples, 13);
  assert.equal(r.children.length, 1, 'one outermost node');
  assert.equal(r.children[0].site, undefined, 'an outermost frame has no call site');
  const top = parentOf(r, 'foo');
  assert.match(top.function.file, /runtime-profiler\.test\.mjs$/, 'the test function calls foo');
  const foos = find(top, 'foo');
  assert.equal(foos.length, 2, 'foo at two call sites');
  assert.equal(foos[1].site.line, foos[0].site.line + 1);
  assert.equal(foos[0].site.file, top.function.file);
  // spinSamples() and probe() sit under foo; webprof's own frames are gone.
  const counts = foos.map((f) => f.samples);
  assert.deepEqual(counts, [3, 6]);
  const [barNode] = find(top, 'bar');
  assert.equal(barNode.samples, 4);
  assert.equal(barNode.selfCount, 0);
  assert.equal(find(barNode, 'foo')[0].samples, 4);
  const leaf = find(foos[0], 'spinSamples')[0];
  assert.equal(leaf.selfCount, 3);
  assert.deepEqual(leaf.children, [], 'probe() and the sampler are not in the tree');
  assert.equal(JSON.stringify(r).includes('dist/webprof'), false);
});

// The line a declaration starts on in this file (1-based).
const ownLines = readFileSync(new URL(import.meta.url), 'utf8').split('\n');
const lineOf = (text) => ownLines.findIndex((l) => l.startsWith(text)) + 1;

test('results(): each function carries its definition line, read from its source', () => {
  const p = profiler();
  p.start(undefined, 10);
  bar(2);
  p.stop();
  const r = p.results();
  const top = parentOf(r, 'bar');
  const [barNode] = find(top, 'bar');
  const [fooNode] = find(barNode, 'foo');
  const file = barNode.function.file;
  assert.deepEqual(barNode.function, { file, line: lineOf('function bar(n) {'), name: 'bar' });
  assert.deepEqual(fooNode.function, { file, line: lineOf('function foo(n) {'), name: 'foo' });
  assert.deepEqual(find(fooNode, 'spinSamples')[0].function, {
    file,
    line: lineOf('function spinSamples(n) {'),
    name: 'spinSamples',
  });
  // The test's own arrow function is anonymous: "" at its definition line.
  assert.equal(top.function.name, '');
  assert.equal(top.function.line, lineOf("test('results(): each function carries its definition line"));
  // Node's own modules (node:...) have no readable source: no line, as named.
  const internal = [];
  (function walk(n) {
    if (n.function && /^node:/.test(n.function.file)) internal.push(n.function);
    n.children.forEach(walk);
  })(r);
  assert.ok(internal.length > 0, 'the test runner calls in from node: modules');
  for (const f of internal) assert.equal(f.line, undefined, f.file);
});

test('results() after stop() keeps the data; a second start() continues it', () => {
  const p = profiler();
  p.start(undefined, 10);
  foo(2);
  p.stop();
  assert.equal(p.results().samples, 2);
  p.start(undefined, 10);
  foo(1);
  p.stop();
  assert.equal(p.results().samples, 3);
});

test('start() on a runtime this instance already profiles throws', () => {
  const p = profiler();
  p.start();
  assert.throws(
    () => p.start(),
    (e) => e instanceof WebprofError && /already profiles/.test(e.message),
  );
  assert.throws(() => p.start(globalThis), WebprofError);
  assert.equal(p.isProfiling(), true, 'the failed start changed nothing');
});

test('another instance profiling with a different rate or maximum throws; the same joins', () => {
  const a = profiler();
  const b = profiler();
  const c = profiler();
  a.start(undefined, 500, 1000);
  assert.throws(() => b.start(undefined, 250, 1000), /another profiler already profiles/);
  assert.throws(() => b.start(undefined, 500, 999), /another profiler already profiles/);
  assert.throws(() => b.start(), /another profiler already profiles/, 'defaults differ from 500 µs / 1000');
  c.start(undefined, 500, 1000);
  a.stop();
  assert.equal(c.isProfiling(), true, 'still profiled while c has not stopped');
  c.stop();
  assert.equal(a.isProfiling(), false);
  b.start(undefined, 250); // nobody profiles now: any rate is fine
  assert.equal(b.isProfiling(), true);
});

test('sampleRate and maxSamples are validated', () => {
  const p = profiler();
  for (const bad of [0, -1, NaN, Infinity, 'x'])
    assert.throws(() => p.start(undefined, bad), RangeError, `sampleRate ${bad}`);
  assert.throws(() => p.start(undefined, 1000, 0), RangeError);
  assert.throws(() => p.start(undefined, 1000, 2 ** 32), RangeError);
  assert.throws(() => p.start(42), TypeError, 'obj must be an object');
  assert.equal(p.isProfiling(), false);
});

test('samples never come more often than the rate', () => {
  const p = profiler();
  p.start(undefined, 3.6e9); // one hour: the first sample, then none
  for (let i = 0; i < 100000; i++) probe();
  p.stop();
  assert.equal(p.results().samples, 1);
});

test('maxSamples: recording stops at the maximum; the runtime stays profiled', () => {
  const p = profiler();
  p.start(undefined, 1, 3);
  while (!RuntimeProfiler.stats().full) probe();
  assert.equal(p.isProfiling(), true);
  for (let i = 0; i < 1000; i++) probe();
  p.stop();
  assert.equal(p.results().samples, 3);
  assert.equal(RuntimeProfiler.stats().samples, 3);
});

test('frame(): the same object for the same backtrace, shown on its node in results()', () => {
  const p = profiler();
  p.start(undefined, 20);
  const seen = [];
  function annotated() {
    const f = p.frame();
    f.calls = (f.calls || 0) + 1;
    seen.push(f);
    spinSamples(1);
  }
  for (let i = 0; i < 3; i++) annotated();
  assert.equal(seen[0], seen[1]);
  assert.equal(seen[1], seen[2]);
  const other = p.frame(); // another backtrace (this line)
  assert.notEqual(other, seen[0]);
  assert.deepEqual(other, {}, 'a new frame object is empty');
  p.stop();
  const top = parentOf(p.results(), 'annotated');
  const node = find(top, 'annotated')[0];
  assert.equal(node.calls, 3);
  assert.equal(node.samples, 3);
  assert.equal(top.calls, undefined);
});

test('frame() properties never replace the tree fields', () => {
  const p = profiler();
  p.start();
  function annotated() {
    const f = p.frame();
    f.samples = -1;
    f.children = 'x';
    f.note = 'kept';
  }
  annotated();
  const node = find(parentOf(p.results(), 'annotated'), 'annotated')[0];
  assert.equal(node.samples, 0, 'annotated but never sampled: 0 samples');
  assert.deepEqual(node.children, []);
  assert.equal(node.note, 'kept');
});

test('frame() on a runtime that is not being profiled throws', () => {
  const p = profiler();
  assert.throws(
    () => p.frame(),
    (e) => e instanceof WebprofError && /not being profiled/.test(e.message),
  );
});

test('reset() clears samples and frame() data', () => {
  const p = profiler();
  p.start(undefined, 10);
  const here = () => p.frame();
  const f = here();
  f.x = 1;
  foo(2);
  p.reset();
  assert.equal(p.results().samples, 0);
  assert.deepEqual(p.results().children, []);
  const g = here();
  assert.notEqual(g, f, 'frame objects are forgotten');
  assert.deepEqual(g, {});
  foo(1);
  assert.equal(p.results().samples, 1);
});

test('samples whose stacks still wait at reset() are dropped; later ones keep their own stacks', () => {
  const p = profiler();
  p.start(undefined, 10);
  bar(5); // synchronous: their stack texts are still pending
  p.reset();
  foo(3);
  const r = p.results();
  assert.equal(r.samples, 3);
  const parent = parentOf(r, 'foo');
  assert.ok(parent, 'a foo node');
  assert.equal(find(parent, 'foo')[0].samples, 3);
  assert.equal(parentOf(r, 'bar'), null, 'nothing from before reset()');
  checkInvariant(r);
});

test('reset() on a runtime that is not being profiled throws', () => {
  const p = profiler();
  assert.throws(() => p.reset(), /RuntimeProfiler\.reset: that runtime is not being profiled/);
});

test('stop() on a runtime that is not being profiled (by this profiler) throws', () => {
  const a = profiler();
  const b = profiler();
  assert.throws(() => a.stop(), /RuntimeProfiler\.stop: that runtime is not being profiled/);
  a.start();
  assert.throws(() => b.stop(), /not being profiled by this profiler/);
  a.stop();
  assert.throws(() => a.stop(), WebprofError, 'a second stop() throws');
});

test('obj: an object of this realm names this runtime', () => {
  const p = profiler();
  p.start({});
  assert.equal(p.isProfiling(), true);
  assert.equal(p.isProfiling([]), true);
  p.stop(function () {});
  assert.equal(p.isProfiling(), false);
});

test('obj: a window without webprof is refused with a clear error, nothing started', () => {
  const p = profiler();
  const win = {};
  win.window = win; // looks like a Window (window.window === window)
  assert.throws(
    () => p.start(win),
    (e) => e instanceof WebprofError && /has not loaded webprof/.test(e.message),
  );
  assert.throws(() => p.stop(win), /not being profiled/);
  assert.throws(() => p.reset(win), /not being profiled/);
  assert.equal(p.isProfiling(), false);
});
