// The console reporter's text (js/probes/console-format.mjs): printf's
// "%12.3f" cells exactly, the stable sort, name order as UTF-8 bytes, the
// header of manual data, notices for what a window's caps dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixed, formatConsoleReport } from '../../js/probes/console-format.mjs';

// printf's "%.*f" by an independent rule: toFixed is exact but rounds a tie
// (an exactly representable midpoint) up, printf to even. At 3 decimals a
// double is a midpoint exactly when v·16 is an odd integer (v = (2k+1)/2000
// = q/16); at 0, when v·2 is.
function printfFixed(v, width, decimals) {
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  const a = Math.abs(v);
  let text = a.toFixed(decimals);
  const scaled = a * (decimals === 3 ? 16 : 2);
  const tie = Number.isInteger(scaled) && scaled % 2 === 1;
  const last = text.charCodeAt(text.length - 1) - 48;
  if (tie && last % 2 === 1) text = text.slice(0, -1) + String(last - 1);
  return (sign + text).padStart(width);
}

test('fixed() writes what printf "%*.*f" writes', () => {
  const cases = [
    [0, 12, 3, '       0.000'],
    [-0, 12, 3, '      -0.000'],
    [NaN, 12, 3, '         nan'],
    [Infinity, 12, 3, '         inf'],
    [-Infinity, 0, 3, '-inf'],
    [0.0625, 0, 3, '0.062'], // ties: half to even
    [0.1875, 0, 3, '0.188'],
    [2.5, 12, 0, '           2'],
    [1.5, 0, 0, '2'],
    [0.5, 0, 0, '0'],
    [0.0005, 0, 3, '0.001'], // a tie in decimal, not in binary (just above)
    [99999.9995, 0, 3, '100000.000'], // just above: carries into a new digit
    [2 ** 80, 0, 0, '1208925819614629174706176'],
    [1e21, 0, 3, '1000000000000000000000.000'],
    [5e-324, 0, 3, '0.000'],
    [-0.0001, 0, 3, '-0.000'],
    [1234567.0 / 1024, 12, 3, '    1205.632'],
  ];
  for (const [v, w, d, want] of cases) assert.equal(fixed(v, w, d), want, `${v} ${w} ${d}`);
  assert.equal(fixed(undefined, 0, 3), 'nan', 'as a number (what crossing into the core did)');
});

test('fixed() equals printf on 100 000 values: ms times with ties, fractions, powers of two', () => {
  let seed = 3;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let i = 0; i < 100000; i++) {
    let v;
    if (i % 3 === 0) v = rand(200000000) / 10000;
    else if (i % 3 === 1) v = rand(1000000) / 1024;
    else v = rand(1000000) * 2 ** (rand(70) - 60);
    if (i % 7 === 0) v = -v;
    const got = fixed(v, 12, 3);
    if (got !== printfFixed(v, 12, 3)) assert.fail(`${v}: ${got} != ${printfFixed(v, 12, 3)}`);
    if (fixed(v, 0, 0) !== printfFixed(v, 0, 0)) assert.fail(`${v} (0 decimals)`);
  }
});

const row = (sum, count = 1) => ({ count, sum, avg: sum, max: sum, min: sum, p50: sum, p90: sum, p99: sum });
const report = (extra) => ({
  generation: 0,
  startedAt: 0,
  endedAt: 0,
  aggregates: [],
  traces: [],
  marks: [],
  ...extra,
});
const all = () => true;

test('the sort is stable: equal keys keep their order, across many merge passes', () => {
  // Sums cycle 1..5: seven or eight names share each sum.
  const aggregates = Array.from({ length: 37 }, (_, i) => [`n${i}`, row(1 + (i % 5))]);
  const s = formatConsoleReport(report({ aggregates }), 'sum', all, true);
  let last = -1;
  for (let sum = 5; sum >= 1; sum--)
    for (let i = sum - 1; i < 37; i += 5) {
      const at = s.indexOf(`  n${i}\n`);
      assert.ok(at > last, `n${i} (sum ${sum}) out of order\n${s}`);
      last = at;
    }
});

test('sortBy name orders names as their UTF-8 bytes do (code points), not UTF-16 units', () => {
  const names = ['b', '\u{1F600}', '\uFF21', 'a'];
  const s = formatConsoleReport(report({ aggregates: names.map((n) => [n, row(1)]) }), 'name', all, false);
  const order = ['a', 'b', '\uFF21', '\u{1F600}'].map((n) => s.indexOf(`  ${n}\n`));
  assert.deepEqual(
    [...order].sort((x, y) => x - y),
    order,
    s,
  );
});

test('manual data has no window number; notices for every cap, none for a clean window', () => {
  const s = formatConsoleReport(report({}), 'sum', all, true);
  assert.ok(s.startsWith('[webprof] probes window, 0.000 ms\n'), s);
  assert.doesNotMatch(s, /notice/);
  const dropped = formatConsoleReport(
    report({
      generation: 3,
      endedAt: 2.5,
      marksDropped: 1,
      tracesDropped: 2,
      tracesIncomplete: 3,
      aggregatesDropped: 4,
      namesDropped: 5,
    }),
    'sum',
    all,
    true,
  );
  assert.ok(dropped.startsWith('[webprof] probes window #3, 2.500 ms\n'), dropped);
  for (const n of [
    'notice: 1 marks dropped (markLimit)',
    'notice: 2 traces dropped (traceLimit)',
    'notice: 3 traces incomplete (not ended in the window)',
    'notice: 4 aggregate spans dropped (1024 names per window)',
    'notice: 5 probe calls dropped (new probe names: 4096 per window)',
  ])
    assert.ok(dropped.includes(n), n);
});

test('boundaries are never filtered; the info column follows what is shown', () => {
  const r = report({
    endedAt: 6,
    traces: [{ name: 'c:t', timestamp: 1, duration: 2 }],
    marks: [
      { name: 'start', timestamp: 0, boundary: true },
      { name: 'b:m', timestamp: 4, boundary: false, info: '{"route":"/g"}' },
      { name: 'c:m', timestamp: 5, boundary: false, info: null },
      { name: 'end', timestamp: 6, boundary: true },
    ],
  });
  const s = formatConsoleReport(r, 'sum', (n) => n.startsWith('c:'), true);
  assert.match(s, / {7}start {2}name {2}info\n/);
  assert.match(s, / {2}c:m {2}\[unprintable\]\n/);
  assert.doesNotMatch(s, /b:m/);
  assert.match(s, / {2}start\n/);
  assert.match(s, / {2}end\n/);
  assert.match(s, /duration {2}name\n/, 'no trace has info: no column');
  const none = formatConsoleReport(r, 'sum', (n) => n === 'c:t', true);
  assert.doesNotMatch(none, /info/);
});
