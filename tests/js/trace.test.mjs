// The package as Node imports it: load the Wasm core, build a trace through
// it, read it back; errors carry the core's messages; nothing is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as webprof from 'webprof';

await webprof.ready;

test('builds a small trace through the core and reads it back', () => {
  const s = new webprof.TraceSession({ sampleInterval: 1, maxBufferSize: 10 });
  try {
    const r = s.resource('https://example.com/app.js');
    const main = s.frame({ name: 'main', resourceId: r, line: 1, column: 10 });
    const work = s.frame({ name: 'work', resourceId: r, line: 5, column: 14 });
    const builtin = s.frame({ name: 'sort' });
    const s0 = s.stack(main);
    const s1 = s.stack(work, s0);
    const s2 = s.stack(builtin, s1);
    assert.equal(s.stack(work, s0), s1, 'same (frame, parent) interns to the same stack');
    assert.equal(s.frame({ name: 'work', resourceId: r, line: 5, column: 14 }), work);
    assert.equal(s.sample(0.5), true);
    assert.equal(s.sample(1.5, s1), true);
    assert.equal(s.sample(2.5, s2), true);
    assert.deepEqual(s.toTrace(), {
      resources: ['https://example.com/app.js'],
      frames: [
        { name: 'main', resourceId: 0, line: 1, column: 10 },
        { name: 'work', resourceId: 0, line: 5, column: 14 },
        { name: 'sort' },
      ],
      stacks: [{ frameId: 0 }, { frameId: 1, parentId: 0 }, { frameId: 2, parentId: 1 }],
      samples: [{ timestamp: 0.5 }, { timestamp: 1.5, stackId: 1 }, { timestamp: 2.5, stackId: 2 }],
    });
  } finally {
    s.dispose();
  }
});

test('buffer takes exactly maxBufferSize samples, then the session stops', () => {
  const s = new webprof.TraceSession({ maxBufferSize: 2 });
  assert.equal(s.sample(1), true);
  assert.equal(s.sample(2), true);
  assert.equal(s.state, 'started');
  assert.equal(s.sample(3), false);
  assert.equal(s.state, 'stopped');
  assert.throws(() => s.sample(4), { name: 'WebprofError', code: 'Stopped' });
  assert.equal(s.toTrace().samples.length, 2);
  s.dispose();
});

test('maxBufferSize is converted like a WebIDL unsigned long', () => {
  const s = new webprof.TraceSession({ maxBufferSize: 2 ** 32 + 3 });
  assert.equal(s.maxBufferSize, 3);
  s.dispose();
  const t = new webprof.TraceSession({ maxBufferSize: -1 });
  assert.equal(t.maxBufferSize, 2 ** 32 - 1);
  t.dispose();
});

test('bad input gets a clear error and keeps what was recorded', () => {
  const s = new webprof.TraceSession({ maxBufferSize: 100 });
  s.sample(5);
  assert.throws(() => s.sample(NaN), /timestamp must be a finite number/);
  assert.throws(() => s.sample(-3), /timestamp must be a finite number/);
  assert.throws(() => s.sample(4), /earlier than the previous sample/);
  assert.throws(() => s.sample(6, 99), /stackId does not name a stack/);
  assert.throws(() => s.stack(42), /frameId does not name a frame/);
  assert.throws(() => s.frame({ name: 'x', resourceId: 7 }), /resourceId does not name a resource/);
  assert.throws(() => s.frame({ name: 'x', line: 0 }), RangeError);
  assert.throws(() => s.frame({ name: 42 }), TypeError);
  assert.deepEqual(s.toTrace().samples, [{ timestamp: 5 }]);
  s.dispose();
  assert.throws(() => s.sample(7), /disposed/);
});

test('lone surrogates in names become U+FFFD (one per surrogate, as TextEncoder does)', () => {
  const s = new webprof.TraceSession({ maxBufferSize: 1 });
  s.frame({ name: 'a\uD800b' });
  s.frame({ name: '\u{1F600}' });
  const names = s.toTrace().frames.map((f) => f.name);
  assert.deepEqual(names, ['a\uFFFDb', '\u{1F600}']);
  s.dispose();
});
