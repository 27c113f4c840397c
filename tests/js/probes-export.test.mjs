// A probes window feeds the exporters unchanged: its traces become Chrome
// trace `X` events and its marks instant events, with ts = timestamp * 1000.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as p from 'webprof';

await p.ready;
await p.loadExporters(); // exports without a Profiler's stop()
let fakeNow = 0;
performance.now = () => fakeNow;

test("a window's traces and marks export as Chrome X and instant events", () => {
  fakeNow = 10;
  p.start();
  const id = p.traceStart('module:app');
  fakeNow = 12.5;
  p.traceEnd(id, { moduleId: 1 });
  p.mark('data-ready', { items: 3 });
  p.aggrEnd(p.aggrStart('render'));
  fakeNow = 13;
  let aggregates, marks, traces;
  p.end((a, m, t) => ([aggregates, marks, traces] = [a, m, t]));
  const json = JSON.parse(new TextDecoder().decode(p.toChromeTrace({ aggregates, marks, traces })));
  const events = Array.isArray(json) ? json : json.traceEvents;
  const x = events.find((e) => e.ph === 'X' && e.name === 'module:app');
  assert.ok(x, JSON.stringify(events));
  assert.equal(x.ts, 10 * 1000);
  assert.equal(x.dur, 2.5 * 1000);
  // The exporter nests info under args.info (the seed's sketch uses args = info).
  assert.deepEqual(x.args.info ?? x.args, { moduleId: 1 });
  const ready = events.find((e) => e.ph === 'i' && e.name === 'data-ready');
  assert.ok(ready);
  assert.equal(ready.ts, 12.5 * 1000);
  assert.ok(events.some((e) => e.ph === 'i' && e.name === 'start'));
  assert.ok(events.some((e) => e.ph === 'i' && e.name === 'end'));
});

test("a window's own results export byte for byte as the same data given as objects", () => {
  fakeNow = 100;
  p.start();
  const id = p.traceStart('load');
  fakeNow = 100.000015; // sub-µs: numbers the core writes must read like JSON.stringify's
  p.traceEnd(id, { route: '/a', n: 1.5e-7 });
  p.mark('tick', ['x', 2]);
  p.mark('cyclic', {
    get self() {
      return 'ok';
    },
  });
  for (let i = 0; i < 5; i++) {
    const a = p.aggrStart('render');
    fakeNow += 0.0003 * (i + 1);
    p.aggrEnd(a);
  }
  fakeNow = 101;
  let own;
  p.end((a, m, t) => (own = { aggregates: a, marks: m, traces: t }));
  // The same values as plain objects: not the window's, so loaded from JS.
  const copy = {
    aggregates: new Map([...own.aggregates].map(([k, v]) => [k, { ...v }])),
    marks: { ...own.marks, events: [...own.marks.events] },
    traces: { ...own.traces, events: [...own.traces.events] },
  };
  for (const format of p.exportFormats().map((f) => f.id)) {
    const a = new Uint8Array(p.exportTrace(format, own));
    const b = new Uint8Array(p.exportTrace(format, copy));
    assert.deepEqual(a, b, format);
  }
  // The page's exporters run in the tools module (js/core/tools.mjs), apart
  // from the recorder: the window crosses as its JS records, so an edit shows.
  const count = own.aggregates.get('render').count;
  own.aggregates.get('render').count = 999;
  assert.notDeepEqual(new Uint8Array(p.toChromeTrace(own)), new Uint8Array(p.toChromeTrace(copy)));
  own.aggregates.get('render').count = count;
  // Each part on its own too (the others as copies), and a resized result is read from JS.
  const mixed = { aggregates: own.aggregates, marks: copy.marks, traces: own.traces };
  assert.deepEqual(new Uint8Array(p.toChromeTrace(mixed)), new Uint8Array(p.toChromeTrace(copy)));
  own.aggregates.delete('render');
  copy.aggregates.delete('render');
  assert.deepEqual(new Uint8Array(p.toPerfettoTrace(own)), new Uint8Array(p.toPerfettoTrace(copy)));
});
