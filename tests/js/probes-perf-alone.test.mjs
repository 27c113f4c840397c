// webprof/perf alone, as an app with the perf flags on loads it: the probes'
// own core (webprof-probes.wasm, js/core/instance.mjs) is the only Wasm module
// instantiated, and the probes' rules hold on it as on the page's core —
// caps and drop counters (issue 18), limits, info, the console reporter's
// text, a window ended before the core arrived.
import { test } from 'node:test';
import assert from 'node:assert/strict';

// Which modules get instantiated, by their imports (the page's core imports
// embind's functions; the probes' own only WASI's proc_exit and a growth note).
const instantiated = [];
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = function (source, imports) {
  instantiated.push(Object.keys(imports || {}).sort());
  return instantiate.call(this, source, imports);
};
let fakeNow = 0;
performance.now = () => fakeNow;

const p = await import('webprof/perf');
function windowOf(fn, options) {
  return new Promise((resolve) => {
    p.start(options);
    fn();
    p.end((...results) => resolve(results));
  });
}

test('a window ended before the core arrived is reported once it is there, by the probes own core', async () => {
  fakeNow = 10;
  const [aggregates, marks] = await windowOf(() => {
    const id = p.aggrStart('early');
    fakeNow = 12;
    p.aggrEnd(id);
    p.mark('m');
  });
  assert.deepEqual(instantiated, [['env', 'wasi_snapshot_preview1']]);
  assert.equal(aggregates.get('early').sum, 2);
  assert.deepEqual(
    marks.events.map((e) => e.name),
    ['start', 'm', 'end'],
  );
});

test('caps and drop counters: names, aggregates, marks and traces over their limits', async () => {
  const [aggregates, marks, traces] = await windowOf(
    () => {
      // Known names first: the name cap below refuses new ones.
      for (let i = 0; i < 4; i++) p.traceEnd(p.traceStart('t'), { i });
      p.traceStart('open');
      for (let i = 0; i < 6; i++) p.mark('m', { i });
      for (let i = 0; i < 5000; i++) p.aggrEnd(p.aggrStart(`n:${i}`));
    },
    { markLimit: 4, traceLimit: 3 },
  );
  // 4096 names a window (the earlier test's count too), 1024 aggregates;
  // a probe of a refused name counts as a dropped name.
  assert.equal(aggregates.size, 1024);
  assert.ok(aggregates.dropped > 4096 - 1024 - 16 && aggregates.dropped <= 4096 - 1024);
  assert.ok(aggregates.namesDropped >= 5000 - 4096);
  assert.equal(marks.events.length, 4);
  assert.ok(marks.dropped > 0);
  assert.equal(traces.events.length, 3);
  assert.deepEqual(traces.events[0].info, { i: 0 });
  assert.equal(traces.dropped + traces.incomplete > 0, true);
  assert.deepEqual(instantiated.length, 1, 'still the one instance');
});

test("the console reporter prints the core's text", async () => {
  const lines = [];
  const log = console.log;
  console.log = (...a) => lines.push(a.join(' '));
  try {
    fakeNow = 100;
    await windowOf(() => {
      const id = p.aggrStart('work');
      fakeNow = 101.5;
      p.aggrEnd(id);
      p.mark('ready', { route: '/g' });
    });
    fakeNow = 200;
    p.setReporter(p.createConsoleReporter({ sortBy: 'count', filter: 'wo' }));
    await windowOf(() => p.aggrEnd(p.aggrStart('work')));
    p.clearReporter();
  } finally {
    console.log = log;
  }
  const text = lines.join('\n');
  assert.match(text, /\[webprof\] probes window #\d+/);
  assert.match(text, /sorted by count/);
  assert.match(text, /work/);
  assert.throws(() => p.createConsoleReporter({ sortBy: 'nope' }), /sortBy must be one of/);
});
