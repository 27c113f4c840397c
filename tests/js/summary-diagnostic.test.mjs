// The note a polyfill summary carries when (almost) no sample has a JS stack:
// said for the polyfill only, past a handful of samples, and it names what to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, summarize, formatSummary, loadExporters } from '../../dist/webprof.mjs';

await ready;
await loadExporters(); // summarize() without a Profiler's stop()

const trace = (withStack, without) => ({
  resources: ['https://a.test/app.js'],
  frames: [{ name: 'hot', resourceId: 0, line: 1, column: 1 }],
  stacks: [{ frameId: 0 }],
  samples: [
    ...Array.from({ length: withStack }, (_, i) => ({ timestamp: i, stackId: 0 })),
    ...Array.from({ length: without }, (_, i) => ({ timestamp: withStack + i })),
  ],
});

test('a polyfill trace with no stacks says why and what to do', () => {
  const text = formatSummary(summarize(trace(0, 100)), { backend: 'polyfill' });
  assert.match(text, /note: 100 of 100 samples have no JS stack/);
  for (const fix of ['Document-Policy: js-profiling', 'webprof/transform/esbuild', 'data-dense'])
    assert.ok(text.includes(fix), fix);
});

test('no note for the native sampler, a few samples, or a trace with stacks', () => {
  assert.doesNotMatch(formatSummary(summarize(trace(0, 100)), { backend: 'native' }), /note:/);
  assert.doesNotMatch(formatSummary(summarize(trace(0, 4)), { backend: 'polyfill' }), /note:/);
  assert.doesNotMatch(formatSummary(summarize(trace(30, 70)), { backend: 'polyfill' }), /note:/);
});
