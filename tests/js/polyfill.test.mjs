// `webprof/polyfill` in Node: no native Profiler, so it installs webprof's.
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('importing webprof/polyfill defines globalThis.Profiler where none exists', async () => {
  assert.equal(typeof globalThis.Profiler, 'undefined');
  const mod = await import('webprof/polyfill');
  assert.equal(globalThis.Profiler, mod.Profiler);
  assert.equal(mod.nativeProfilerAllowed(), false);
  await mod.ready;
  const p = new Profiler({ sampleInterval: 1, maxBufferSize: 10 });
  assert.equal(p.backend, 'polyfill');
  const t = await p.stop();
  assert.ok(Array.isArray(t.samples));
});
