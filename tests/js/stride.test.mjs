// When probe-site counters read the clock (js/profiler/stride.mjs): a sample
// is taken at the first check at or after its due time, however far apart
// the checks are — through the public API in Node for both counters (the
// task probes' probe() and the transform's inline check), and as a
// simulation of the rule at steady and changing rates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as webprof from 'webprof';
import { Stride } from '../../js/profiler/stride.mjs';

const { Profiler, __wp$f, __wp$s, probe } = webprof;
await webprof.ready;

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// Exactly what the transform inserts at a function's entry.
function sparseDense() {
  if (--__wp$f[0] < __wp$f[1]) __wp$s();
}
function sparseProbe() {
  probe();
}

function samplesIn(trace, name) {
  return trace.samples.filter((s) => {
    for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
      if (trace.frames[trace.stacks[id].frameId].name === name) return true;
    return false;
  }).length;
}

// One synchronous task: no timer can sample in between, only the checks.
async function run(check, { checks = 12, gapMs = 100, maxBufferSize = 1000, interval = 10 } = {}) {
  const p = new Profiler({ sampleInterval: interval, maxBufferSize, backend: 'polyfill' });
  for (let i = 0; i < checks; i++) {
    check();
    sleep(gapMs);
  }
  return p.stop();
}

// Checks with another task between each two, busy 100 ms in code without
// checks or probe sites (setImmediate is not one): the next check must not
// take that task's due times.
async function runAcrossTasks(check, { checks = 12, gapMs = 100, interval = 10 } = {}) {
  const p = new Profiler({ sampleInterval: interval, maxBufferSize: 1000, backend: 'polyfill' });
  for (let i = 0; i < checks; i++) {
    check();
    await new Promise((resolve) =>
      setImmediate(() => {
        sleep(gapMs);
        resolve();
      }),
    );
  }
  return p.stop();
}

const gaps = (trace) => trace.samples.slice(1).map((s, i) => s.timestamp - trace.samples[i].timestamp);

test('inline dense check: 12 checks 100 ms apart in one task at 10 ms: a sample per due time, each with the stack of the check after it', async () => {
  const trace = await run(sparseDense);
  // 1 at the first check, then the 10 due times of each 100 ms stretch.
  const inside = samplesIn(trace, sparseDense.name);
  assert.ok(inside >= 100 && inside <= 125, `${inside}`);
  assert.equal(inside, trace.samples.length);
  assert.ok(Math.max(...gaps(trace)) < 2 * 10, JSON.stringify(gaps(trace)));
});

test('probe(): 12 checks 100 ms apart at 10 ms give a sample at each', async () => {
  const trace = await run(sparseProbe);
  assert.equal(samplesIn(trace, sparseProbe.name), 12);
});

test("inline dense check: a check after another task does not take that task's due times", async () => {
  const trace = await runAcrossTasks(sparseDense);
  const inside = samplesIn(trace, sparseDense.name);
  assert.ok(inside >= 1 && inside <= 12, `${inside} of ${trace.samples.length}`);
});

for (const [what, fn] of [
  ['inline dense check', sparseDense],
  ['probe()', sparseProbe],
]) {
  test(`${what}: a buffer of 2 gets its 2 samples from 3 checks 100 ms apart`, async () => {
    const trace = await run(fn, { checks: 3, maxBufferSize: 2 });
    assert.equal(trace.samples.length, 2);
    assert.equal(samplesIn(trace, fn.name), 2);
  });
}

// The rule alone, on a simulated clock: checks every `gap(i)` ms, a sample
// due every `interval`; returns each sample's lateness and the clock reads.
function simulate({ interval, gap, checks }) {
  const s = new Stride();
  let t = 0;
  let due = 0;
  let counter = 0;
  let reads = 0;
  const late = [];
  for (let i = 0; i < checks; i++) {
    t += gap(i);
    if (--counter > 0) continue;
    reads++;
    if (t >= due) {
      late.push(t - due);
      due = t + interval;
    }
    counter = s.next(t, due - t, interval);
  }
  return { late, reads, duration: t };
}

test('at a steady rate the sample is late by at most one gap, with few clock reads', () => {
  for (const gap of [0.00001, 0.0003, 0.01, 0.4, 5]) {
    const r = simulate({ interval: 1, gap: () => gap, checks: Math.min(3e7, 300 / gap) });
    const settled = r.late.slice(20);
    assert.ok(settled.length > 10, `gap ${gap}: ${settled.length} samples`);
    assert.ok(Math.max(...settled) <= gap + 1e-9, `gap ${gap}: late ${Math.max(...settled)}`);
    // About 8 reads per interval (plus the approach to the due time) while
    // checks are dense, every check when they are sparse.
    const perInterval = r.reads / r.duration;
    assert.ok(perInterval <= Math.max(16, 1 / gap + 1), `gap ${gap}: ${perInterval} reads per interval`);
  }
});

test('a rate that drops 100x is noticed within about an eighth of an interval of predicted checks', () => {
  // 1 µs between checks, then 100 µs from check 200000 on.
  const r = simulate({ interval: 1, gap: (i) => (i < 200000 ? 0.001 : 0.1), checks: 230000 });
  // The worst sample: the predicted 1/8 ms of checks at 100x the gap = 12.5 ms.
  assert.ok(Math.max(...r.late) <= 13, `late ${Math.max(...r.late)}`);
  // Once the new rate is measured, a sample is late by at most one gap again.
  assert.ok(Math.max(...r.late.slice(-50)) <= 0.1 + 1e-9);
});
