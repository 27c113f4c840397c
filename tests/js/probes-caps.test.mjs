// The probes' caps seen from the page (issue 18, item 2): a page that
// invents a new aggregate name per call never makes a probe throw, the core
// keeps at most its caps (src/probes/window.h) and says what it dropped, and
// a probe dropped by a cap or a limit, or ignored (a stale or ended id, an
// end without a start), never reads the clock: the core admits it first.
import { test } from 'node:test';
import assert from 'node:assert/strict';

let fakeNow = 0;
let clockReads = 0;
performance.now = () => {
  clockReads++;
  return fakeNow;
};
const p = await import('webprof');
await p.ready;

test('10 000 new aggregate names per window, three windows: capped, counted, no throw, no clock for the dropped', () => {
  for (let w = 0; w < 3; w++) {
    fakeNow = 1000 * w;
    p.start();
    let keptReads = 0;
    let droppedReads = 0;
    for (let i = 0; i < 10000; i++) {
      const before = clockReads;
      const id = p.aggrStart(`render:${w}:${i}`);
      fakeNow += 0.001;
      p.aggrEnd(id);
      if (id >= 0) keptReads += clockReads - before;
      else droppedReads += clockReads - before;
    }
    let got;
    p.end((...a) => (got = a));
    const [aggregates] = got;
    // New names: 4096 per window; of those, 1024 aggregates per window.
    assert.equal(aggregates.size, 1024);
    assert.equal(aggregates.dropped, 4096 - 1024);
    assert.equal(aggregates.namesDropped, 10000 - 4096);
    assert.equal(droppedReads, 0, 'a probe dropped by a cap read the clock');
    // Names past the aggregates cap are refused at aggrStart (id -1): only
    // the 1 024 folded pairs read the clock, once at each end.
    assert.equal(keptReads, 2 * 1024);
  }
});

test('marks and traces of refused names are dropped quietly; known names still record', () => {
  fakeNow = 5000;
  p.start({ markLimit: 10000 });
  for (let i = 0; i < 4096; i++) p.mark(`m:${i}`);
  const before = clockReads;
  p.mark('refused mark');
  const t = p.traceStart('refused trace');
  p.traceEnd(t);
  p.traceEnd('refused trace');
  p.aggrStart('refused named', true);
  p.aggrEnd('refused named');
  assert.equal(clockReads, before);
  assert.equal(t, -1);
  p.mark('m:7'); // known: recorded
  let got;
  p.end((...a) => (got = a));
  const [aggregates, marks] = got;
  assert.ok(marks.events.some((e) => e.name === 'm:7'));
  assert.ok(!marks.events.some((e) => e.name === 'refused mark'));
  assert.equal(aggregates.namesDropped, 5);
});

test('a probe dropped by a limit, or with a stale, ended or unknown id, or ending nothing, reads no clock', () => {
  const reads = (fn) => {
    const before = clockReads;
    fn();
    return clockReads - before;
  };
  fakeNow = 9000;
  p.start({ markLimit: 3, traceLimit: 2 }); // marks: start, one, end
  let t, open, a, stale;
  // Accepted: one clock read each.
  assert.equal(
    reads(() => p.mark('adm:m')),
    1,
  );
  assert.equal(
    reads(() => (t = p.traceStart('adm:t'))),
    1,
  );
  assert.equal(
    reads(() => p.traceEnd(t, { kept: true })),
    1,
  );
  assert.equal(
    reads(() => (open = p.traceStart('adm:open', true))),
    1,
  );
  assert.equal(
    reads(() => (a = p.aggrStart('adm:a'))),
    1,
  );
  assert.equal(
    reads(() => p.aggrEnd(a)),
    1,
  );
  assert.equal(
    reads(() => (stale = p.aggrStart('adm:a'))),
    1,
  );
  assert.equal(
    reads(() => p.aggrStart('adm:n', true)),
    1,
  );
  assert.equal(
    reads(() => p.aggrEnd('adm:n')),
    1,
  );
  // Past the limits.
  assert.equal(
    reads(() => p.mark('adm:m', { lost: true })),
    0,
  );
  let refusedId;
  assert.equal(
    reads(() => (refusedId = p.traceStart('adm:t'))),
    0,
  );
  assert.equal(refusedId, -1);
  assert.equal(
    reads(() => p.traceStart('adm:open', true)),
    0,
  ); // detaches the open one's name
  // Ended, never handed out, or ending nothing.
  assert.equal(
    reads(() => p.traceEnd(t, { lost: true })),
    0,
  );
  assert.equal(
    reads(() => p.traceEnd(987654)),
    0,
  );
  assert.equal(
    reads(() => p.traceEnd('adm:open')),
    0,
  );
  assert.equal(
    reads(() => p.traceEnd('adm:never')),
    0,
  );
  assert.equal(
    reads(() => p.aggrEnd(a)),
    0,
  );
  assert.equal(
    reads(() => p.aggrEnd(123456)),
    0,
  );
  assert.equal(
    reads(() => p.aggrEnd('adm:n')),
    0,
  );
  assert.equal(
    reads(() => p.aggrEnd('adm:never')),
    0,
  );
  let got;
  p.end((...r) => (got = r));
  const [aggregates, marks, traces] = got;
  assert.equal(aggregates.get('adm:a').count, 1);
  assert.equal(aggregates.get('adm:n').count, 1);
  assert.equal(aggregates.dropped, 0);
  assert.equal(marks.dropped, 1);
  assert.deepEqual(
    marks.events.map((e) => e.name),
    ['start', 'adm:m', 'end'],
  );
  assert.equal(traces.dropped, 2);
  assert.equal(traces.incomplete, 1); // adm:open
  assert.deepEqual(
    traces.events.map((e) => [e.name, e.info]),
    [['adm:t', { kept: true }]],
  );

  // Ids of the window before are stale in the next one.
  p.start();
  assert.equal(
    reads(() => p.aggrEnd(stale)),
    0,
  );
  assert.equal(
    reads(() => p.traceEnd(open)),
    0,
  );
  p.end(() => {});
});
