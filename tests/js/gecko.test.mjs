// importGeckoProfile() on the real Firefox profile under tests/fixtures/gecko/
// (the core's rules are tested natively in tests/core/import/): the page's
// thread in a window, exported like any trace; malformed and foreign
// profiles refused with a WebprofError that says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ready, summarize, toCpuProfile, loadExporters } from '../../dist/webprof.mjs';
import { importGeckoProfile, ready as nodeReady } from '../../dist/playwright.mjs';

// webprof/playwright carries its own copy of the core (its Node side).
await Promise.all([ready, nodeReady, loadExporters()]);
const fixture = readFileSync(new URL('../fixtures/gecko/firefox-esr/hot-inline.json', import.meta.url));
const PAGE = 'http://127.0.0.1:46307/hot-inline.html';
const START = 1796133328017.1099; // the page process's meta.startTime

test('the page thread in the window, its hot function first', () => {
  const got = importGeckoProfile(fixture, {
    pageUrl: PAGE,
    windowStart: START + 19500,
    windowEnd: START + 20900,
  });
  assert.equal(got.threadName, 'GeckoMain');
  assert.equal(got.pid, 23196);
  assert.equal(got.sampleInterval, 1);
  assert.deepEqual(got.trace.resources, [PAGE]);
  const s = summarize(got.trace);
  assert.equal(s.top[0].name, 'hotInline');
  assert.equal(s.top[0].line, 5);
  assert.ok(s.top[0].selfPercent >= 40);
  const cpu = JSON.parse(new TextDecoder().decode(toCpuProfile({ profile: got.trace })));
  assert.ok(cpu.nodes.some((n) => n.callFrame.functionName === 'hotInline'));
});

test('truncated, malformed and foreign profiles are refused with a reason', () => {
  const half = fixture.subarray(0, fixture.length >> 1);
  assert.throws(
    () => importGeckoProfile(half, { pageUrl: PAGE }),
    (e) => e.code === 'MalformedProfile' && /Gecko profile: truncated at byte \d+/.test(e.message),
  );
  assert.throws(
    () => importGeckoProfile('{"traceEvents":[]}'),
    (e) => e.code === 'MalformedProfile' && /"meta" and "threads"/.test(e.message),
  );
  assert.throws(
    () => importGeckoProfile(fixture, { pageUrl: 'https://elsewhere.test/' }),
    (e) => e.code === 'NoProfileThread' && /shows https:\/\/elsewhere\.test\//.test(e.message),
  );
  assert.throws(() => importGeckoProfile(42), TypeError);
});

test('a timeOrigin that is no time is refused by the core rule every importer shares, not defaulted', () => {
  for (const [timeOrigin, says] of [
    [Infinity, /^webprof: timeOrigin is not a finite number/],
    [-1, /^webprof: timeOrigin is negative/],
    [2 ** 53, /^webprof: timeOrigin is past 2\^53 µs/], // ms: 1000 times the limit
  ])
    assert.throws(
      () => importGeckoProfile(fixture, { pageUrl: PAGE, timeOrigin }),
      (e) => e.code === 'InvalidArgument' && says.test(e.message),
      String(timeOrigin),
    );
  for (const timeOrigin of ['5', null, NaN])
    assert.throws(() => importGeckoProfile(fixture, { timeOrigin }), TypeError, String(timeOrigin));
  assert.equal(importGeckoProfile(fixture, { pageUrl: PAGE, timeOrigin: START }).timeOrigin, START);
});
