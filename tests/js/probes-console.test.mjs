// The console reporter: sortBy, filter (prefix or predicate), header, the
// info column, notices, unprintable info; formatting is the core's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as p from 'webprof';

await p.ready;
let fakeNow = 0;
performance.now = () => fakeNow;

function capture(fn) {
  const lines = [];
  const orig = console.log;
  console.log = (...a) => lines.push(a.join(' '));
  try {
    fn();
  } finally {
    console.log = orig;
  }
  return lines.join('\n');
}

function sampleWindow() {
  fakeNow = 0;
  p.start({ markLimit: 5, traceLimit: 2 });
  for (let i = 0; i < 3; i++) {
    const id = p.aggrStart('a:many');
    fakeNow += 1;
    p.aggrEnd(id);
  }
  const id = p.aggrStart('b:long');
  fakeNow += 10;
  p.aggrEnd(id);
  p.traceEnd(p.traceStart('b:trace'));
  p.traceStart('a:open');
  p.traceStart('a:dropped');
  p.mark('a:mark', { route: '/goods' });
  p.mark('b:mark');
  p.mark('b:over');
  p.mark('b:over2');
  let got;
  p.end((...args) => (got = args));
  return got;
}

test('default console reporter: header, sum order, info column, notices', () => {
  const w = sampleWindow();
  const out = capture(() => p.consoleReporter(...w));
  assert.match(out, /^\[webprof\] probes window #\d+, 13\.000 ms/);
  assert.ok(out.indexOf('  b:long') < out.indexOf('  a:many'), 'sorted by sum');
  assert.match(out, /start {2}name {2}info\n/, 'marks have an info column');
  assert.match(out, /duration {2}name\n/, 'traces have none');
  assert.match(out, /a:mark {2}\{"route":"\/goods"\}/);
  assert.match(out, /notice: 1 marks dropped/);
  assert.match(out, /notice: 1 traces dropped/);
  assert.match(out, /notice: 1 traces incomplete/);
});

test('sortBy count, header off, prefix filter keeps boundaries', () => {
  const w = sampleWindow();
  const out = capture(() => p.createConsoleReporter({ sortBy: 'count', header: false, filter: 'a:' })(...w));
  assert.doesNotMatch(out, /\[webprof\]/);
  assert.match(out, /a:many/);
  assert.doesNotMatch(out, /b:long|b:trace|b:mark/);
  assert.match(out, / {2}start\n/);
  assert.match(out, / {2}end\n/);
  const byCount = capture(() => p.createConsoleReporter({ sortBy: 'count' })(...w));
  assert.ok(byCount.indexOf('  a:many') < byCount.indexOf('  b:long'));
});

test('predicate filter, and an unknown sortBy or filter type fails clearly', () => {
  const w = sampleWindow();
  const out = capture(() => p.createConsoleReporter({ filter: (n) => n.endsWith('mark') })(...w));
  assert.match(out, /a:mark/);
  assert.match(out, /b:mark/);
  assert.doesNotMatch(out, /a:many|b:trace/);
  assert.throws(() => p.createConsoleReporter({ sortBy: 'fastest' }), /sortBy must be one of/);
  assert.throws(() => p.createConsoleReporter({ filter: 42 }), /filter must be/);
});

test('info JSON cannot write (a cycle, a BigInt) does not break the output', () => {
  const cyclic = {};
  cyclic.self = cyclic;
  fakeNow = 0;
  p.start();
  p.mark('bad', cyclic);
  p.mark('big', { n: 10n });
  p.mark('fine', { ok: 1 });
  let w;
  p.end((...a) => (w = a));
  const out = capture(() => p.consoleReporter(...w));
  // The one info rule (js/probes/info.mjs; tests/js/probes-info.test.mjs).
  assert.match(out, /bad {2}\{"self":"\[Circular\]"\}/);
  assert.match(out, /big {2}\{"n":"10n"\}/);
  assert.match(out, /fine {2}\{"ok":1\}/);
  assert.match(out, / {2}end/);
});

test('a manual call with plain data (one or two arguments) formats too', () => {
  const out = capture(() =>
    p.consoleReporter(new Map([['x', { count: 1, sum: 2, avg: 2, max: 2, min: 2, p50: 2, p90: 2, p99: 2 }]])),
  );
  assert.match(out, / {2}x\n/);
});

test("a window's own results print from the recorder exactly as a copy of them prints", () => {
  const [a, m, t] = sampleWindow();
  const copy = [
    new Map([...a].map(([k, v]) => [k, { ...v }])),
    { ...m, events: [...m.events] },
    { ...t, events: [...t.events] },
  ];
  for (const options of [undefined, { sortBy: 'count', filter: 'a:' }, { filter: (n) => n !== 'b:long' }]) {
    const r = p.createConsoleReporter(options);
    const own = capture(() => r(a, m, t));
    const fromObjects = capture(() => r(...copy));
    assert.ok(own.includes('a:many'), own);
    // The copy carries no window number: only the header's " #N" may differ.
    assert.equal(own.replace(/ #\d+/, ''), fromObjects);
  }
  // Printed from the recorder: an edit of the Map that keeps its size is not seen.
  a.get('a:many').count = 999;
  assert.ok(!capture(() => p.consoleReporter(a, m, t)).includes('999'));
});
