// A trap on the per-sample path (TraceSession.sample, a call the page made)
// poisons the instance: that call and every later one throw WebprofError,
// isReady() turns false for good, nothing raw reaches the caller. Its own
// process (node --test runs each file apart): the instance stays poisoned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as webprof from 'webprof';

await webprof.ready;
await webprof.loadExporters(); // exports without a Profiler's stop()

const isPoisoned = (e) => e instanceof webprof.WebprofError && /trapped/.test(e.message);

test('a trap in TraceSession.sample() poisons every later call', async () => {
  const t = new webprof.TraceSession({ sampleInterval: 1, maxBufferSize: 100 });
  const s = t.stack(t.frame({ name: 'work' }));
  assert.equal(t.sample(1, s), true);
  webprof.start();
  webprof.mark('before');
  webprof.end(() => {});
  assert.equal(webprof.isReady(), true);

  webprof.__debugTrapNextCall();
  assert.throws(() => t.sample(2, s), isPoisoned, 'the trapping call itself');
  assert.equal(webprof.isReady(), false);

  assert.throws(() => t.sample(3, s), isPoisoned, 'the hot path again');
  assert.throws(() => t.sample(4), isPoisoned);
  assert.throws(() => t.state, isPoisoned);
  assert.throws(() => t.toTrace(), isPoisoned);
  assert.throws(() => t.frame({ name: 'other' }), isPoisoned);
  assert.throws(() => new webprof.TraceSession({ maxBufferSize: 10 }), isPoisoned);
  // Probes: recording or not, each throws instead of doing nothing.
  assert.throws(() => webprof.aggrStart('x'), isPoisoned);
  assert.throws(() => webprof.start(), isPoisoned);
  assert.throws(() => webprof.aggrEnd(0), isPoisoned);
  assert.throws(() => webprof.mark('m'), isPoisoned);
  assert.throws(() => webprof.traceStart('t'), isPoisoned);
  assert.throws(
    () => webprof.toChromeTrace({ profile: { resources: [], frames: [], stacks: [], samples: [] } }),
    isPoisoned,
  );
  assert.throws(
    () => webprof.importTrace({ resources: [], frames: [], stacks: [], samples: [{ timestamp: 1 }] }),
    isPoisoned,
  );
  assert.throws(
    () => new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 10, backend: 'polyfill' }),
    isPoisoned,
  );
  // A sampling site the page did not call into stays silent.
  assert.doesNotThrow(() => webprof.probe());
  t.dispose(); // never throws (it also runs from finalizers)
  assert.equal(webprof.isReady(), false);
});
