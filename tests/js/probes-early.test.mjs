// Probes used before the Wasm core has loaded lose nothing: the calls are
// logged with their times and replayed into the core once `ready` resolves;
// ids handed out early still end their spans afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as p from 'webprof';

let fakeNow = 10;
performance.now = () => fakeNow;

// All of this runs synchronously, before the core can possibly be loaded.
const early = p.isReady();
const reports = [];
p.start({ markLimit: 8 });
const a = p.aggrStart('early:aggr');
const t = p.traceStart('early:trace');
fakeNow = 12;
p.aggrEnd(a);
p.mark('early:mark', { n: 1 });
const lateTrace = p.traceStart('late:trace');
fakeNow = 15;
p.traceEnd(t, { done: true });
p.end((...args) => reports.push(args));
p.start();
const openAcross = p.aggrStart('across');

test('calls made before ready are replayed into the core', async () => {
  assert.equal(early, false);
  await p.ready;
  assert.equal(reports.length, 1);
  const [aggr, marks, traces] = reports[0];
  assert.deepEqual(aggr.get('early:aggr'), { ...aggr.get('early:aggr'), count: 1, sum: 2 });
  assert.deepEqual(
    marks.events.map((e) => [e.name, e.start]),
    [
      ['start', 0],
      ['early:mark', 2],
      ['end', 5],
    ],
  );
  assert.deepEqual(marks.events[1].info, { n: 1 });
  assert.equal(traces.events.length, 1);
  assert.deepEqual(traces.events[0], {
    name: 'early:trace',
    start: 0,
    timestamp: 10,
    duration: 5,
    info: { done: true },
  });
  assert.equal(traces.incomplete, 1, 'late:trace was never ended');
  assert.equal(lateTrace >= 0, true);

  // A provisional id from before ready ends its span after ready.
  fakeNow = 20;
  p.aggrEnd(openAcross);
  let got;
  p.end((x) => (got = x));
  assert.equal(got.get('across').count, 1);
  assert.equal(got.get('across').sum, 5);
});
