// A trap on the polyfill sampler's per-sample path (a probe site: not a call
// the page made to webprof) is never thrown into the page: it is recorded —
// the instance is poisoned, sampling stops — and every later API call
// throws WebprofError, isReady() false. Its own process (node --test runs
// each file apart): the instance stays poisoned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as webprof from 'webprof';

await webprof.ready;

const isPoisoned = (e) => e instanceof webprof.WebprofError && /trapped/.test(e.message);

function busy(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end) webprof.probe();
}

test('a trap at a sampling site is swallowed there and poisons every later call', async () => {
  const p = new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 1000, backend: 'polyfill' });
  busy(20); // samples are taken: the sampler is attached and running
  assert.equal(webprof.isReady(), true);

  webprof.__debugTrapNextCall();
  assert.doesNotThrow(() => busy(20), 'the probe sites never throw into the page');
  await new Promise((r) => setTimeout(r, 50)); // the idle timer and resolver run too
  assert.equal(webprof.isReady(), false);

  await assert.rejects(p.stop(), isPoisoned);
  assert.throws(
    () => new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 10, backend: 'polyfill' }),
    isPoisoned,
  );
  const t = () => new webprof.TraceSession({ maxBufferSize: 10 });
  assert.throws(t, isPoisoned);
  assert.throws(() => webprof.aggrStart('x'), isPoisoned);
  assert.throws(() => webprof.start(), isPoisoned);
  assert.doesNotThrow(() => busy(5));
  assert.equal(webprof.isReady(), false);
});
