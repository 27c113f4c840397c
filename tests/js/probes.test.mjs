// The explicit probes through the Wasm core in Node: the seed's API, its
// window, aggregate, trace, mark and reporter rules, and the three defects
// of the reference implementation. The clock is performance.now, replaced by
// a settable fake so durations are exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';

let fakeNow = 1000;
let clockReads = 0;
performance.now = () => {
  clockReads++;
  return fakeNow;
};
const p = await import('webprof');
const { pickClock } = await import('../../js/core/clock.mjs');
await p.ready;

/** Runs fn inside a window opened at `at` and returns the reporter's arguments. */
function windowOf(fn, { at = 1000, options } = {}) {
  fakeNow = at;
  p.start(options);
  fn();
  let got;
  p.end((...args) => (got = args));
  return got;
}

test('pickClock: performance.now, else nativePerformanceNow, else Date.now', () => {
  assert.equal(pickClock({ performance: { now: () => 7 }, nativePerformanceNow: () => 8 })(), 7);
  assert.equal(pickClock({ nativePerformanceNow: () => 8 })(), 8);
  const t = pickClock({})();
  assert.ok(Math.abs(t - Date.now()) < 1000);
});

test('an empty window still reports start/end boundary marks', () => {
  const [aggr, marks, traces] = windowOf(() => (fakeNow = 1250), { at: 1000 });
  assert.ok(aggr instanceof Map);
  assert.equal(aggr.size, 0);
  assert.deepEqual(marks, {
    events: [
      { name: 'start', start: 0, timestamp: 1000 },
      { name: 'end', start: 250, timestamp: 1250 },
    ],
    dropped: 0,
  });
  assert.deepEqual(traces, { events: [], dropped: 0, incomplete: 0 });
});

test('aggr id mode: nesting, out-of-order ends, same-name concurrency, stats and percentiles', () => {
  const [aggr] = windowOf(() => {
    fakeNow = 1;
    const a = p.aggrStart('a');
    fakeNow = 2;
    const b = p.aggrStart('b');
    const a2 = p.aggrStart('a');
    fakeNow = 10;
    p.aggrEnd(a);
    fakeNow = 4;
    p.aggrEnd(b);
    p.aggrEnd(a2);
  });
  assert.deepEqual([...aggr.keys()], ['a', 'b']);
  const { p50, p90, p99, ...exact } = aggr.get('a');
  assert.deepEqual(exact, { count: 2, sum: 11, avg: 5.5, max: 9, min: 2 });
  // Nearest rank over {2, 9}; the core's stated bound is 1/128 relative.
  assert.ok(Math.abs(p50 - 2) <= 2 / 128, `p50 ${p50}`);
  assert.equal(p90, 9, 'clamped to the exact max');
  assert.equal(p99, 9);
  assert.equal(aggr.get('b').count, 1);
  assert.equal(aggr.get('b').sum, 2);
});

test('not recording: aggrStart returns -1 without reading the clock; other probes are no-ops', () => {
  const before = clockReads;
  assert.equal(p.aggrStart('x'), -1);
  assert.equal(p.scopeStart('x'), -1);
  p.aggrEnd(0);
  assert.equal(p.traceStart('x'), -1);
  p.traceEnd(0);
  p.mark('x', { a: 1 });
  assert.equal(clockReads, before);
});

test('invalid and repeated aggr ends are safe no-ops', () => {
  const [aggr] = windowOf(() => {
    const id = p.aggrStart('a');
    p.aggrEnd(-1);
    p.aggrEnd(undefined);
    p.aggrEnd(null);
    p.aggrEnd(123456);
    p.aggrEnd(id);
    p.aggrEnd(id);
    p.aggrEnd('never-started');
    p.scopeEnd(p.scopeStart('legacy')); // legacy names map to id mode
    p.scopeEnd(-1);
  });
  assert.equal(aggr.get('legacy').count, 1);
  assert.equal(aggr.get('a').count, 1);
  assert.equal(aggr.has('never-started'), false);
});

test('defect 1: an aggr id from a previous window ended in the new one does not count', () => {
  fakeNow = 0;
  p.start();
  const old = p.aggrStart('w');
  p.end(() => {});
  const [aggr] = windowOf(() => {
    p.aggrStart('w'); // reuses the slot
    p.aggrEnd(old);
  });
  assert.equal(aggr.has('w'), false);
});

test('defect 2: a double end does not end the span that reused the slot', () => {
  const [aggr] = windowOf(() => {
    fakeNow = 0;
    const first = p.aggrStart('first');
    fakeNow = 1;
    p.aggrEnd(first);
    const second = p.aggrStart('second');
    assert.notEqual(first, second);
    fakeNow = 2;
    p.aggrEnd(first);
    fakeNow = 11;
    p.aggrEnd(second);
  });
  assert.equal(aggr.get('second').sum, 10);
  assert.equal(aggr.get('second').count, 1);
});

test('aggr name mode: later start overwrites, start before the window counts when the end is inside', () => {
  fakeNow = 0;
  p.aggrStart('req', true); // before the window
  p.measureStart('m');
  const [aggr] = windowOf(
    () => {
      fakeNow = 5;
      p.aggrEnd('req');
      p.aggrEnd('req'); // consumed
      fakeNow = 6;
      p.measureStart('m'); // overwrites the start at 0
      fakeNow = 8;
      p.measureEnd('m');
    },
    { at: 3 },
  );
  assert.equal(aggr.get('req').sum, 5);
  assert.equal(aggr.get('req').count, 1);
  assert.equal(aggr.get('m').sum, 2);
});

test('traces: start order, back-filled duration and info by reference, start offsets', () => {
  const info = { moduleId: 1 };
  const [, , traces] = windowOf(
    () => {
      fakeNow = 101;
      const app = p.traceStart('module:app');
      fakeNow = 102;
      const router = p.traceStart('module:router');
      fakeNow = 105;
      p.traceEnd(router, { moduleId: 42 });
      fakeNow = 110;
      p.traceEnd(app, info);
      p.traceEnd(app, { late: true });
    },
    { at: 100 },
  );
  assert.deepEqual(traces.events, [
    { name: 'module:app', start: 1, timestamp: 101, duration: 9, info: { moduleId: 1 } },
    { name: 'module:router', start: 2, timestamp: 102, duration: 3, info: { moduleId: 42 } },
  ]);
  assert.equal(traces.events[0].info, info, 'kept by reference');
});

test('traces: unfinished removed and counted incomplete; limit drops; 0 stores nothing', () => {
  let [, , traces] = windowOf(
    () => {
      p.traceStart('open');
      p.traceEnd(p.traceStart('done'));
      p.traceStart('dropped');
    },
    { options: { traceLimit: 2 } },
  );
  assert.deepEqual(
    traces.events.map((e) => e.name),
    ['done'],
  );
  assert.equal(traces.incomplete, 1);
  assert.equal(traces.dropped, 1);
  [, , traces] = windowOf(() => p.traceEnd(p.traceStart('x'), { a: 1 }), { options: { traceLimit: 0 } });
  assert.deepEqual(traces, { events: [], dropped: 1, incomplete: 0 });
});

test('traces name mode: overwrite counts the old one incomplete', () => {
  const [, , traces] = windowOf(() => {
    fakeNow = 1;
    p.traceStart('request:goods', true);
    fakeNow = 2;
    p.traceStart('request:goods', true);
    fakeNow = 5;
    p.traceEnd('request:goods', { status: 'fulfilled' });
  });
  assert.equal(traces.events.length, 1);
  assert.equal(traces.events[0].duration, 3);
  assert.deepEqual(traces.events[0].info, { status: 'fulfilled' });
  assert.equal(traces.incomplete, 1);
});

test('defect 3: a dropped name-mode traceStart does not let traceEnd end the older event', () => {
  const [, , traces] = windowOf(
    () => {
      p.traceStart('n', true);
      p.traceStart('n', true); // dropped by the limit
      p.traceEnd('n');
    },
    { options: { traceLimit: 1 } },
  );
  assert.deepEqual(traces, { events: [], dropped: 1, incomplete: 1 });
});

test('trace ids of an old window cannot end events of a new one', () => {
  fakeNow = 0;
  p.start();
  const old = p.traceStart('t');
  p.end(() => {});
  const [, , traces] = windowOf(() => {
    fakeNow = 1;
    const fresh = p.traceStart('t');
    p.traceEnd(old);
    fakeNow = 3;
    p.traceEnd(fresh);
  });
  assert.equal(traces.events.length, 1);
  assert.equal(traces.events[0].duration, 2);
});

test('marks: same name kept apart, info by reference, markLimit keeps the last slot for end', () => {
  const info = { source: 'cache', itemCount: 20 };
  const [, marks] = windowOf(
    () => {
      fakeNow = 2;
      p.mark('ready', info);
      p.mark('ready');
      p.mark('over', { x: 1 });
    },
    { options: { markLimit: 4 } },
  );
  assert.deepEqual(
    marks.events.map((e) => e.name),
    ['start', 'ready', 'ready', 'end'],
  );
  assert.equal(marks.events[1].info, info);
  assert.equal('info' in marks.events[2], false);
  assert.equal(marks.dropped, 1);
});

test('options: invalid values fall back to 1024; repeated start keeps data and capacity; new window re-reads', () => {
  for (const bad of [1, 2.5, -1, NaN, Infinity, '8']) {
    const [, marks] = windowOf(
      () => {
        for (let i = 0; i < 1030; i++) p.mark('m');
      },
      { options: { markLimit: bad, traceLimit: bad } },
    );
    assert.equal(marks.events.length, 1024, `markLimit ${bad}`);
    assert.equal(marks.dropped, 1030 - 1022);
  }
  fakeNow = 0;
  p.start({ markLimit: 3 });
  p.mark('kept');
  p.start({ markLimit: 100 }); // idempotent
  p.mark('dropped');
  let got;
  p.end((...a) => (got = a));
  assert.deepEqual(
    got[1].events.map((e) => e.name),
    ['start', 'kept', 'end'],
  );
  assert.equal(got[1].dropped, 1);
  const [, marks] = windowOf(() => {
    for (let i = 0; i < 5; i++) p.mark('m');
  });
  assert.equal(marks.dropped, 0, 'the new window does not inherit markLimit 3');
});

test('reporters: global then local get the same references; a throwing reporter breaks nothing', () => {
  const calls = [];
  const origError = console.error;
  console.error = () => {};
  try {
    p.setReporter(() => {
      calls.push('global-throws');
      throw new Error('boom');
    });
    fakeNow = 0;
    p.start();
    p.aggrEnd(p.aggrStart('a'));
    p.end((...args) => calls.push(args));
    p.setReporter((...args) => calls.push(['global', ...args]));
    p.start();
    p.mark('still recording');
    p.end((...args) => calls.push(['local', ...args]));
  } finally {
    console.error = origError;
    p.clearReporter();
  }
  assert.equal(calls[0], 'global-throws');
  assert.equal(calls[1][0].get('a').count, 1, 'local ran after the global threw');
  const [g, l] = [calls[2], calls[3]];
  assert.equal(g[0], 'global');
  assert.equal(l[0], 'local');
  for (let i = 1; i <= 3; i++) assert.equal(g[i], l[i], 'same reference');
  assert.equal(g[2].events[1].name, 'still recording');
  p.start();
  let after = null;
  p.end((a) => (after = a));
  assert.equal(calls.length, 4, 'clearReporter removed the global reporter');
  assert.ok(after instanceof Map);
});

test('end without a window and stray ends are no-ops; names must be strings', () => {
  p.end(() => assert.fail('no window'));
  fakeNow = 0;
  p.start();
  assert.throws(() => p.aggrStart(42), /probe name must be a string/);
  p.end();
});

test('aggr id mode in a loop: every pair counted', () => {
  fakeNow = 0;
  p.start();
  for (let i = 0; i < 10000; i++) p.aggrEnd(p.aggrStart('hot'));
  let got;
  p.end((a) => (got = a));
  assert.equal(got.get('hot').count, 10000);
});
