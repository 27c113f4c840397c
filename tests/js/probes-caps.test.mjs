// The probes' caps seen from the page (issue 18, item 2): a page that
// invents a new aggregate name per call never makes a probe throw, the core
// keeps at most its caps (src/probes/window.h) and says what it dropped, and
// a probe dropped by a cap never reads the clock.
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
    assert.ok(keptReads >= 2 * 4096, `${keptReads}`);
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
