// A probe's info is shown by one rule everywhere (js/probes/info.mjs): a mark
// whose info is a prototype-less object holding a BigInt, a cycle, a
// throwing getter or a revoked Proxy never makes an export throw (the whole
// export was lost), and reads the same in the Chrome trace, the Perfetto
// trace and the console reporter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as p from 'webprof';
import { infoJson } from '../../js/probes/info.mjs';

await p.ready;
await p.loadExporters(); // exports without a Profiler's stop()
let fakeNow = 0;
performance.now = () => fakeNow;

function hostileInfos() {
  const bare = Object.create(null);
  bare.big = 12345678901234567890n;
  bare.nested = Object.create(null);
  bare.nested.n = -1n;
  const cyclic = { name: 'c' };
  cyclic.self = cyclic;
  const throwing = {
    get boom() {
      throw new Error('getter says no');
    },
  };
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  let deep = {};
  for (let i = 0; i < 200; i++) deep = { d: deep };
  return { bare, cyclic, throwing, proxy, deep };
}

const EXPECTED = {
  bare: '{"big":"12345678901234567890n","nested":{"n":"-1n"}}',
  cyclic: '{"name":"c","self":"[Circular]"}',
  throwing: '"[unprintable: getter says no]"',
};

test('the one rule: JSON where JSON can, BigInt as "<digits>n", cycles, throws and depth as strings', () => {
  const h = hostileInfos();
  for (const [k, text] of Object.entries(EXPECTED)) assert.equal(infoJson(h[k]), text, k);
  assert.match(infoJson(h.proxy), /^"\[unprintable: .*revoked/);
  assert.match(infoJson(h.deep), /"\[too deep\]"/);
  JSON.parse(infoJson(h.deep));
  // Plain values read exactly as JSON.stringify writes them.
  for (const v of [
    { a: [1, 'x', null, true, undefined, () => 1] },
    [NaN, Infinity],
    'é"\n',
    0,
    { toJSON: () => 7 },
  ])
    assert.equal(infoJson(v), JSON.stringify(v));
  assert.equal(infoJson(undefined), '');
});

test('a window with hostile mark infos exports in every format and reads the same everywhere', () => {
  const h = hostileInfos();
  fakeNow = 1;
  p.start();
  for (const [k, v] of Object.entries(h)) p.mark(`m:${k}`, v);
  fakeNow = 2;
  let w;
  p.end((...a) => (w = a));
  const [aggregates, marks, traces] = w;
  for (const input of [
    { aggregates, marks, traces }, // the window's own (from the recorder)
    { marks: { ...marks, events: [...marks.events] } }, // plain objects (loaded from JS)
  ]) {
    const chrome = JSON.parse(new TextDecoder().decode(p.toChromeTrace(input)));
    const events = Array.isArray(chrome) ? chrome : chrome.traceEvents;
    for (const [k, text] of Object.entries(EXPECTED)) {
      const e = events.find((x) => x.name === `m:${k}`);
      assert.ok(e, k);
      assert.deepEqual(e.args.info ?? e.args, JSON.parse(text), k);
    }
    const pf = Buffer.from(p.toPerfettoTrace(input)).toString('latin1');
    for (const text of Object.values(EXPECTED)) assert.ok(pf.includes(text), text);
  }
  const logs = [];
  const log = console.log;
  console.log = (s) => logs.push(s);
  try {
    p.consoleReporter(aggregates, marks, traces);
  } finally {
    console.log = log;
  }
  for (const text of Object.values(EXPECTED)) assert.ok(logs.join('\n').includes(text), text);
});
