// Ticker mode's page side (js/profiler/dense.mjs, sampler.mjs), driven
// through the public globals the inserted checks use, with this test in the
// Worker's place: Node has no global Worker, so a stand-in receives the
// shared memory and the test ticks — counts a tick, writes its time, raises
// the threshold and stores -1 into the counter — exactly as the ticker does. Every tick since the last
// sample becomes a sample at its tick's time, all of them with the one stack
// captured at the check that took them; the buffer limit and every
// session's interval apply per sample; ticks taken by the idle timer are
// idle samples. Its own process (node --test runs each file apart): the
// stand-in must be there before webprof loads. webprof is loaded from js/
// (the one copy dense.mjs's constants come from, IDLE/RAISED/RING); the
// slot indexes are dense.mjs's "Int32 slots" layout, which names none.
import { test } from 'node:test';
import assert from 'node:assert/strict';

let memory = null;
globalThis.Worker = class {
  postMessage(message) {
    if (memory === null) memory = message[0];
  }
  terminate() {}
};
await import('../support/js-core.mjs');
const webprof = await import('../../js/index.mjs');
const { IDLE, RAISED, RING, CATCH_UP_MS } = await import('../../js/profiler/dense.mjs');
const { passedDueTimes } = await import('../../js/profiler/sampler.mjs');
// The ticker's use of it (dense.mjs): at most CATCH_UP_MS of ticks, their count.
const dueTicks = (next, ms, t, catchUp) => passedDueTimes(next, ms, t, Math.floor(catchUp / ms) + 1, []);
const { Profiler, __wp$f, __wp$s } = webprof;
await webprof.ready;

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// What the ticker does per tick (dense.mjs TICKER_SOURCE): time, count,
// threshold, counter.
function tick(time) {
  const f = new Int32Array(memory, 0, 8);
  const times = new Float64Array(memory, 32, RING);
  const c = Atomics.load(f, 4);
  times[c & (RING - 1)] = time;
  Atomics.store(f, 4, c + 1);
  Atomics.store(f, 1, RAISED);
  Atomics.store(f, 0, -1);
}

// A loop body's check, as the transform inserts it (not at a function's
// entry: that one stands for the caller).
function checkFreeStretchEnds() {
  let n = 0;
  for (let i = 0; i < 1; i++) {
    if (--__wp$f[0] < __wp$f[1]) __wp$s();
    n++;
  }
  return n;
}

// The same, as transforms before the threshold slot emitted it.
function olderCheckEnds() {
  let n = 0;
  for (let i = 0; i < 1; i++) {
    if (--__wp$f[0] < 0) __wp$s();
    n++;
  }
  return n;
}

function leafNames(trace) {
  return trace.samples.map((s) =>
    s.stackId === undefined ? null : trace.frames[trace.stacks[s.stackId].frameId].name,
  );
}

test('each tick of a stretch without checks becomes a sample at its time, with the stack of the check after it', async () => {
  const a = new Profiler({ sampleInterval: 1, maxBufferSize: 5, backend: 'polyfill' });
  let full = 0;
  a.addEventListener('samplebufferfull', () => full++);
  const b = new Profiler({ sampleInterval: 2, maxBufferSize: 100, backend: 'polyfill' });
  assert.ok(memory instanceof SharedArrayBuffer, 'the session start posted the shared memory to the ticker');
  Atomics.store(new Int32Array(memory, 0, 8), 6, 1); // the ticker runs
  assert.equal(webprof.denseMode().mode, 'ticker');
  assert.equal(Atomics.load(new Int32Array(memory, 0, 8), 2), 1000, 'it ticks at the smallest interval (µs)');
  checkFreeStretchEnds(); // takes whatever is pending: none
  const t0 = performance.now();
  sleep(12); // one synchronous stretch: 8 ticks, no check, no timer
  const times = Array.from({ length: 8 }, (_, i) => t0 + 1 + i);
  for (const t of times) tick(t);
  checkFreeStretchEnds();
  // a is full: the ticker follows the smallest interval still running.
  assert.equal(Atomics.load(new Int32Array(memory, 0, 8), 2), 2000);
  // The ticks after that check are the idle timer's: no stack.
  tick(t0 + 9.5);
  tick(t0 + 11.5);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const [ta, tb] = [await a.stop(), await b.stop()];

  // a: one sample per tick until its buffer of 5 is full, mid-way through
  // the batch; samplebufferfull once.
  assert.deepEqual(
    ta.samples.map((s) => s.timestamp),
    times.slice(0, 5),
  );
  assert.deepEqual(leafNames(ta), Array(5).fill('checkFreeStretchEnds'));
  assert.equal(new Set(ta.samples.map((s) => s.stackId)).size, 1, 'one capture');
  assert.equal(full, 1);
  // b: every 2 ms (a tick half the ticker's interval early counts as due),
  // the same stack, then the idle ticks.
  assert.deepEqual(
    tb.samples.map((s) => s.timestamp),
    [times[0], times[2], times[4], times[6], t0 + 9.5, t0 + 11.5],
  );
  assert.deepEqual(leafNames(tb), [...Array(4).fill('checkFreeStretchEnds'), null, null]);
});

test('ticks from before a session are not its samples; a tick older than the last sample keeps the order', async () => {
  const f = new Int32Array(memory, 0, 8);
  const before = performance.now();
  tick(before - 50); // pending from no session
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 100, backend: 'polyfill' });
  const t0 = performance.now();
  sleep(4);
  tick(t0 + 1);
  tick(t0 + 0.5); // the Worker's clock and the page's disagree a little
  tick(t0 + 2.5);
  tick(performance.now() + 50); // never after the check that takes it
  const atCheck = performance.now();
  checkFreeStretchEnds();
  const trace = await p.stop();
  const ts = trace.samples.filter((s) => s.stackId !== undefined).map((s) => s.timestamp);
  assert.equal(ts[0], t0 + 1);
  assert.equal(ts[1], t0 + 2.5, 'the tick before t0 + 1 came too early for the 1 ms interval');
  assert.ok(ts[2] >= atCheck && ts[2] <= performance.now(), `${ts[2]} at the check (${atCheck})`);
  assert.equal(ts.length, 3);
  assert.equal(Atomics.load(f, 5), Atomics.load(f, 4), 'the page told the ticker every tick was taken');
});

test('the threshold alone makes a check take the ticks, and taking them lowers it; older checks read the counter', async () => {
  const f = new Int32Array(memory, 0, 8);
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 100, backend: 'polyfill' });
  checkFreeStretchEnds(); // whatever is pending
  const t0 = performance.now();
  tick(t0);
  // A loop whose optimized code keeps the counter in a register never sees
  // the counter's -1: the threshold is what it reads.
  f[0] = IDLE;
  assert.equal(Atomics.load(f, 1), RAISED);
  checkFreeStretchEnds();
  assert.equal(Atomics.load(f, 1), 0, 'lowered when the tick was taken');
  assert.equal(Atomics.load(f, 5), Atomics.load(f, 4));
  sleep(2);
  const t1 = performance.now();
  tick(t1);
  olderCheckEnds();
  assert.equal(Atomics.load(f, 1), 0);
  const trace = await p.stop();
  const taken = trace.samples.filter((s) => s.stackId !== undefined);
  assert.deepEqual(
    taken.map((s) => s.timestamp),
    [t0, t1],
  );
  assert.deepEqual(
    taken.map((s) => trace.frames[trace.stacks[s.stackId].frameId].name),
    ['checkFreeStretchEnds', 'olderCheckEnds'],
  );
  assert.equal(Atomics.load(f, 1), 0, 'no session: the threshold stays low');
});

// The ticker's catch-up (dense.mjs, sampler.mjs passedDueTimes): a thread woken late writes a
// tick per interval it missed, the last at the time it woke, at most
// CATCH_UP_MS worth; on time, one.
test('a ticker woken late writes one tick per interval it missed, up to CATCH_UP_MS worth', () => {
  assert.equal(dueTicks(100, 1, 100, CATCH_UP_MS), 1);
  assert.equal(dueTicks(100, 1, 100.9, CATCH_UP_MS), 1);
  assert.equal(dueTicks(100, 1, 101, CATCH_UP_MS), 2);
  assert.equal(dueTicks(100, 1, 107.5, CATCH_UP_MS), 8); // 100..107, the last at 107.5
  assert.equal(dueTicks(100, 10, 135, CATCH_UP_MS), 4);
  assert.equal(dueTicks(100, 1, 100 + 10 * CATCH_UP_MS, CATCH_UP_MS), 1 + CATCH_UP_MS);
  // The ticker runs it as source text in its Worker: nothing from outside.
  assert.equal(new Function(`return ${passedDueTimes}`)()(100, 2, 107, 26, []), 4);
});
