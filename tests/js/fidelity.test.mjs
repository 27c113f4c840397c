// Frame positions to definitions through the Wasm core, with sources served
// by a stub fetch: call sites collapse onto their function, unfetchable and
// unscannable scripts keep their positions, every sample survives, and each
// source is fetched once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as webprof from 'webprof';

await webprof.ready;

const APP = 'https://app.test/app.js';
const PAGE = 'https://app.test/index.html';
const SOURCES = {
  [APP]: [
    'text/javascript',
    'function work(n) {\n  step(n);\n  step(n + 1);\n}\nconst step = (k) => k * 2;\n',
  ],
  [PAGE]: ['text/html', '<!doctype html>\n<script>\n  function inline() { work(1); }\n</script>\n'],
  'https://app.test/broken.js': ['text/javascript', 'function broken( {'],
};

function stubFetch(log) {
  return async (url) => {
    log.push(url);
    const s = SOURCES[url];
    if (!s) return new Response('nope', { status: 404 });
    return new Response(s[1], { headers: { 'content-type': s[0] } });
  };
}

function record(t) {
  const app = t.resource(APP);
  const page = t.resource(PAGE);
  const broken = t.resource('https://app.test/broken.js');
  const gone = t.resource('https://app.test/missing.js');
  const inline = t.frame({ name: 'inline', resourceId: page, line: 3, column: 23 });
  const w2 = t.frame({ name: 'work', resourceId: app, line: 2, column: 3 });
  const w3 = t.frame({ name: 'work', resourceId: app, line: 3, column: 3 });
  const st = t.frame({ name: 'step', resourceId: app, line: 5, column: 23 });
  const b = t.frame({ name: 'broken', resourceId: broken, line: 1, column: 5 });
  const g = t.frame({ name: 'gone', resourceId: gone, line: 9, column: 9 });
  const s0 = t.stack(inline);
  t.sample(1, t.stack(st, t.stack(w2, s0)));
  t.sample(2, t.stack(st, t.stack(w3, s0)));
  t.sample(3);
  t.sample(4, t.stack(g, t.stack(b, s0)));
}

test('execution points collapse onto definitions; others keep positions', async () => {
  webprof.clearSourceCache();
  const log = [];
  const t = new webprof.TraceSession({ sampleInterval: 1, maxBufferSize: 100 });
  try {
    record(t);
    t.stop();
    const r = await webprof.resolveFrameDefinitions(t, { fetch: stubFetch(log) });
    assert.equal(r.scripts[APP], 'Scanned');
    assert.equal(r.scripts[PAGE], 'Scanned');
    assert.equal(r.scripts['https://app.test/broken.js'], 'SourceUnscannable');
    assert.equal(r.scripts['https://app.test/missing.js'], 'NotFetchable');
    const trace = t.toTrace();
    assert.deepEqual(trace.frames, [
      { name: 'inline', resourceId: 1, line: 3, column: 18 },
      { name: 'work', resourceId: 0, line: 1, column: 14 },
      { name: 'step', resourceId: 0, line: 5, column: 14 },
      { name: 'broken', resourceId: 2, line: 1, column: 5 },
      { name: 'gone', resourceId: 3, line: 9, column: 9 },
    ]);
    assert.equal(trace.samples.length, 4);
    assert.equal(trace.samples[0].stackId, trace.samples[1].stackId);
    assert.equal(trace.samples[2].stackId, undefined);
    assert.equal(r.framesIn, 6);
    assert.equal(r.framesOut, 5);
  } finally {
    t.dispose();
  }
  // A second session on the same page fetches nothing again.
  const t2 = new webprof.TraceSession({ maxBufferSize: 10 });
  try {
    record(t2);
    await webprof.resolveFrameDefinitions(t2, { fetch: stubFetch(log) });
    assert.equal(log.length, 4);
    assert.equal(t2.toTrace().frames[1].column, 14);
  } finally {
    t2.dispose();
  }
});

test('a source whose fetch stalls is passed over after waitMs; the others resolve, and nothing changes later', async () => {
  webprof.clearSourceCache();
  await webprof.loadExporters(); // the tools module, so the 50 ms are the fetches'
  const log = [];
  let release;
  const stalled = new Promise((resolve) => (release = resolve));
  const fetch = (url) => (url === PAGE ? stalled.then(() => stubFetch(log)(url)) : stubFetch(log)(url));
  const t = new webprof.TraceSession({ sampleInterval: 1, maxBufferSize: 100 });
  try {
    record(t);
    t.stop();
    const r = await webprof.resolveFrameDefinitions(t, { fetch, waitMs: 50 });
    assert.equal(r.scripts[PAGE], 'TimedOut');
    assert.equal(r.scripts[APP], 'Scanned');
    const frames = t.toTrace().frames;
    assert.deepEqual(frames[0], { name: 'inline', resourceId: 1, line: 3, column: 23 });
    assert.deepEqual(frames[1], { name: 'work', resourceId: 0, line: 1, column: 14 });
    // The stalled source arrives: this trace stays untouched.
    const fetched = log.length;
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(t.toTrace().frames, frames);
    assert.equal(log.length, fetched + 1);
  } finally {
    t.dispose();
  }
  // The next trace fetches the passed-over source again (not the stalled
  // promise) and resolves its frames.
  const t2 = new webprof.TraceSession({ maxBufferSize: 10 });
  try {
    record(t2);
    const r2 = await webprof.resolveFrameDefinitions(t2, { fetch, waitMs: 5000 });
    assert.equal(r2.scripts[PAGE], 'Scanned');
    assert.equal(t2.toTrace().frames[0].column, 18);
    assert.equal(log.filter((u) => u === PAGE).length, 2);
  } finally {
    t2.dispose();
  }
  // Infinity (or a time no timer holds) waits for every source.
  const t3 = new webprof.TraceSession({ maxBufferSize: 10 });
  try {
    record(t3);
    const r3 = await webprof.resolveFrameDefinitions(t3, { fetch, waitMs: Infinity });
    assert.equal(r3.scripts[PAGE], 'Scanned');
  } finally {
    t3.dispose();
  }
});
