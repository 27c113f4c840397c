// A probes window feeds the exporters unchanged: its traces become Chrome
// trace `X` events and its marks instant events, with ts = timestamp * 1000.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as p from 'webprof';

await p.ready;
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
