// Platform calls as sample points (js/profiler/platform-sites.mjs): untouched
// code that spins on the clock is sampled inside, with no transform; the
// wrapped methods keep their identity, name and text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Profiler, ready, installProfilerPolyfill } from '../../dist/webprof.mjs';

// As the drop-in's data-polyfill and webprof/polyfill do (no native Profiler in Node).
installProfilerPolyfill();

// An unbraced loop on the clock, never transformed: only the clock samples it.
function spinUntouched(ms) {
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) n++;
  return n;
}

function samplesIn(trace, name) {
  return trace.samples.filter((s) => {
    for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
      if (trace.frames[trace.stacks[id].frameId].name === name) return true;
    return false;
  }).length;
}

test('a 100 ms spin on performance.now() is sampled inside, with no transform', async () => {
  await ready;
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 10000, backend: 'polyfill' });
  spinUntouched(100);
  const trace = await p.stop();
  const inside = samplesIn(trace, 'spinUntouched');
  // Without the wrapped clock no sample can land inside the loop (nothing of
  // webprof runs there); how many do depends on the machine's load.
  assert.ok(inside >= 3, `${inside} of ${trace.samples.length}`);
  assert.ok(inside / trace.samples.length >= 0.5, `${inside} of ${trace.samples.length}`);
  // The wrapper's own frame is not in the stack: the sample names the caller.
  const top = new Set(
    trace.samples
      .filter((s) => s.stackId !== undefined)
      .map((s) => trace.frames[trace.stacks[s.stackId].frameId].name),
  );
  assert.ok(!top.has('now') && ![...top].some((n) => n.includes('webprof')), [...top].join(','));
});

test('Date.now() is a sample point too', async () => {
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 10000, backend: 'polyfill' });
  const end = Date.now() + 60;
  (function spinOnDate() {
    let n = 0;
    while (Date.now() < end) n++;
    return n;
  })();
  const trace = await p.stop();
  assert.ok(samplesIn(trace, 'spinOnDate') >= 2, String(samplesIn(trace, 'spinOnDate')));
});

test('the wrapped clocks keep their identity, name, length and text, and are not constructors', () => {
  assert.equal(performance.now, Performance.prototype.now);
  assert.equal(performance.now.name, 'now');
  assert.equal(Date.now.name, 'now');
  assert.equal(performance.now.length, 0);
  // The original's text (Node's performance.now is JS; Date.now is native).
  assert.doesNotMatch(String(performance.now), /webprof|__wp\$/);
  assert.match(String(Date.now), /^function now\(\) \{ \[native code\] \}$/);
  assert.throws(() => new performance.now(), TypeError);
  assert.equal(typeof performance.now(), 'number');
  assert.ok(Math.abs(Date.now() - new Date().getTime()) < 1000);
});
