// summarize() counts in the core: self <= total for every row, and a sample
// counts once per function in totals under recursion and mutual recursion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, summarize, formatSummary, loadExporters } from '../../dist/webprof.mjs';

await ready;
await loadExporters(); // summarize() without a Profiler's stop()

// A W3C trace from stacks given as lists of frame indices, outermost first.
function traceOf(frames, stackLists) {
  const t = { resources: ['https://a/chart.umd.min.js'], frames, stacks: [], samples: [] };
  stackLists.forEach((list, i) => {
    let parent;
    for (const frameId of list) {
      t.stacks.push(parent === undefined ? { frameId } : { frameId, parentId: parent });
      parent = t.stacks.length - 1;
    }
    t.samples.push(parent === undefined ? { timestamp: i } : { timestamp: i, stackId: parent });
  });
  return t;
}
const fr = (name, line, column) => ({ name, resourceId: 0, line, column });
const row = (s, name) => s.top.find((r) => r.name === name);
const sane = (s) => {
  for (const r of s.top) assert.ok(r.self <= r.total && r.selfPercent <= r.totalPercent, JSON.stringify(r));
};

test('recursion and mutual recursion count a sample once per function', () => {
  const frames = [fr('main', 1, 1), fr('fib', 5, 13), fr('isEven', 9, 16), fr('isOdd', 12, 15)];
  const s = summarize(
    traceOf(frames, [[0, 1, 1, 1, 1], [0, 1, 1], [0, 2, 3, 2, 3, 2], [0, 2, 3, 2, 3], [0, 3], []]),
  );
  sane(s);
  assert.equal(s.samples, 6);
  assert.equal(s.withStack, 5);
  assert.deepEqual([row(s, 'fib').self, row(s, 'fib').total], [2, 2]);
  assert.deepEqual([row(s, 'isEven').self, row(s, 'isEven').total], [1, 2]);
  assert.deepEqual([row(s, 'isOdd').self, row(s, 'isOdd').total], [2, 3]);
  assert.deepEqual([row(s, 'main').self, row(s, 'main').total], [0, 5]);
  assert.equal(row(s, 'main').totalPercent, (100 * 5) / 6);
});

// Issue 16's "2.5 %  1.4 % (anonymous) chart.umd.min.js:13": one row for
// frames of line 13 at several columns summed their selfs but took the
// largest of their totals.
test('frames of one line at several columns: self <= total', () => {
  const frames = [fr('main', 1, 1), fr('', 13, 100), fr('', 13, 5000)];
  const s = summarize(traceOf(frames, [[0, 1], [0, 1], [0, 2], [0, 2], [0, 1, 2], [0]]));
  sane(s);
  const anon = row(s, '(anonymous)');
  assert.deepEqual([anon.self, anon.total, anon.line], [5, 5, 13]);
  assert.match(formatSummary(s), / 83\.3%   83\.3%  \(anonymous\) \(https:\/\/a\/chart\.umd\.min\.js:13\)/);
});

test('summarize rejects a bad top', () => {
  assert.throws(() => summarize(traceOf([], []), { top: -1 }), /top must be an integer/);
});

test('the first line says when samples came coarser than asked', () => {
  const t = traceOf([{ name: 'f', resourceId: 0, line: 1 }], [[0], [0], [0], [0]]);
  t.samples.forEach((x, i) => (x.timestamp = i * 0.4));
  const s = summarize(t);
  assert.ok(Math.abs(s.medianGapMs - 0.4) < 1e-9, String(s.medianGapMs));
  const head = (interval) =>
    formatSummary(s, { backend: 'devtools', sampleInterval: interval }).split('\n')[0];
  assert.match(head(0.1), /sampler: Chromium DevTools, every 0\.1 ms asked, 0\.4 ms apart \(median\)$/);
  assert.match(head(0.4), /sampler: Chromium DevTools, every 0\.4 ms$/);
});
