// Builtin frames (no script: Array.prototype.map, a generator's next, …)
// between a caller and its callback: dropped by default as Chromium's native
// Profiler does, kept on request (keepBuiltinFrames).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as webprof from 'webprof';

const { Profiler, __wp$f, __wp$s, keepBuiltinFrames } = webprof;
await webprof.ready;

function callback() {
  if (--__wp$f[0] < __wp$f[1]) __wp$s();
  const end = performance.now() + 3;
  while (performance.now() < end);
}
function caller() {
  [1, 2, 3, 4, 5].map(callback);
}

async function stacks() {
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 1000, backend: 'polyfill' });
  caller();
  const t = await p.stop();
  const out = [];
  for (const s of t.samples) {
    const names = [];
    for (let id = s.stackId; id !== undefined; id = t.stacks[id].parentId)
      names.unshift(t.frames[t.stacks[id].frameId].name);
    if (names.includes('callback')) out.push(names.slice(names.indexOf('caller')));
  }
  return out;
}

test('by default the builtin between a caller and its callback is dropped', async () => {
  const seen = await stacks();
  assert.ok(seen.length > 0);
  for (const names of seen) assert.deepEqual(names, ['caller', 'callback']);
});

test('keepBuiltinFrames(true) keeps it; false drops it again', async () => {
  keepBuiltinFrames(true);
  try {
    const seen = await stacks();
    assert.ok(seen.length > 0);
    for (const names of seen) assert.deepEqual(names, ['caller', 'map', 'callback']);
  } finally {
    keepBuiltinFrames(false);
  }
  for (const names of await stacks()) assert.deepEqual(names, ['caller', 'callback']);
});
