// The exporters through the Wasm core: a W3C ProfilerTrace plus probe
// timelines in, bytes out; JSON parsed back, protobuf decoded by protoc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as webprof from 'webprof';

await webprof.ready;
await webprof.loadExporters(); // exports without a Profiler's stop()
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const HOSTILE = [
  'main',
  '"},{"ph":"X',
  'back\\slash',
  'line\nbreak',
  'nul\0x',
  'lone \ud800 surrogate',
  '😀 emoji',
];

function fixture(samples = 1000) {
  const frames = HOSTILE.map((name, i) =>
    i % 2 ? { name, resourceId: 0, line: i * 10, column: i + 1 } : { name },
  );
  const stacks = frames.map((_, i) => (i ? { frameId: i, parentId: i - 1 } : { frameId: 0 }));
  const list = [];
  for (let i = 0; i < samples; i++) {
    const s = { timestamp: 10 + i * 0.5 };
    if (i % 7 !== 6) s.stackId = i % stacks.length;
    list.push(s);
  }
  return {
    profile: { resources: ['https://example.test/a.js'], frames, stacks, samples: list },
    marks: { events: [{ name: 'ready', start: 2, timestamp: 12.5, info: { route: '/x' } }], dropped: 0 },
    traces: {
      events: [
        { name: 'module:app', start: 0, timestamp: 10.25, duration: 5.125, info: { moduleId: 1 } },
        { name: 'module:router', start: 1, timestamp: 11, duration: 1 },
      ],
      dropped: 0,
      incomplete: 0,
    },
    aggregates: new Map([['render', { count: 3, sum: 1.5, avg: 0.5, max: 0.9 }]]),
  };
}

const text = (buf) => new TextDecoder().decode(buf);
const expectedName = (n) => n.replace('\ud800', '\ufffd');

function leafCounts(profile) {
  const counts = {};
  for (const s of profile.samples) {
    const name =
      s.stackId === undefined
        ? '(program)'
        : expectedName(profile.frames[profile.stacks[s.stackId].frameId].name);
    counts[name] = (counts[name] || 0) + 1;
  }
  return counts;
}

test('toCpuProfile: valid JSON, same names and sample counts, 0-based lines', () => {
  const input = fixture();
  const buf = webprof.toCpuProfile(input);
  assert.ok(buf instanceof ArrayBuffer);
  const p = JSON.parse(text(buf));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const counts = {};
  for (const id of p.samples) {
    const name = byId.get(id).callFrame.functionName;
    counts[name] = (counts[name] || 0) + 1;
  }
  assert.deepEqual(counts, leafCounts(input.profile));
  assert.equal(p.startTime, 10000);
  assert.equal(p.endTime, 10000 + 999 * 500);
  assert.equal(
    p.timeDeltas.reduce((a, b) => a + b, p.startTime),
    p.endTime,
  );
  const lb = p.nodes.find((n) => n.callFrame.functionName === 'line\nbreak');
  assert.equal(lb.callFrame.lineNumber, 29); // spec line 30, 1-based
  assert.equal(lb.callFrame.columnNumber, 3); // spec column 4
});

test('toChromeTrace: P events, X/i events, aggregates, options', () => {
  const input = fixture(300);
  const doc = JSON.parse(text(webprof.toChromeTrace(input, { pid: 9, tid: 3, threadName: 'ui "main"' })));
  const ev = doc.traceEvents;
  assert.ok(ev.every((e) => e.pid === 9 && e.tid === 3));
  assert.equal(ev.find((e) => e.ph === 'M' && e.name === 'thread_name').args.name, 'ui "main"');
  const chunks = ev.filter((e) => e.name === 'ProfileChunk');
  const samples = chunks.flatMap((c) => c.args.data.cpuProfile.samples);
  assert.equal(samples.length, 300);
  const x = ev.filter((e) => e.ph === 'X');
  assert.deepEqual(
    x.map((e) => [e.name, e.ts, e.dur]),
    [
      ['module:app', 10250, 5125],
      ['module:router', 11000, 1000],
    ],
  );
  assert.deepEqual(x[0].args.info, { moduleId: 1 });
  const mark = ev.find((e) => e.ph === 'i' && e.name === 'ready');
  assert.equal(mark.ts, 12500);
  assert.equal(mark.s, 't');
  const aggr = ev.find((e) => e.name === 'webprof aggregates');
  assert.deepEqual(aggr.args.render, { count: 3, sum: 1.5, avg: 0.5, max: 0.9 });
});

test('toPerfettoTrace: protoc decodes it; smaller than the JSON', () => {
  const input = fixture(5000);
  const buf = webprof.toPerfettoTrace(input);
  const dir = mkdtempSync(join(tmpdir(), 'webprof-'));
  const file = join(dir, 'trace.pftrace');
  writeFileSync(file, new Uint8Array(buf));
  const decoded = execFileSync(
    'protoc',
    ['--decode=perfetto.protos.Trace', '-I', join(root, 'tests/fixtures/perfetto'), 'webprof_subset.proto'],
    { input: new Uint8Array(buf), maxBuffer: 64 << 20 },
  ).toString();
  assert.equal((decoded.match(/callstack_iid: \d+/g) || []).length, 5000);
  assert.match(decoded, /str: "\\360\\237\\230\\200 emoji"|str: "😀 emoji"/);
  assert.match(decoded, /sequence_flags: 1/);
  assert.ok(buf.byteLength < webprof.toChromeTrace(input).byteLength);
});

test('bad input throws with the core message and exports nothing', () => {
  const input = fixture(10);
  input.profile.samples[5].timestamp = NaN;
  assert.throws(() => webprof.toChromeTrace(input), /profile\.samples: timestamp must be a finite number/);
  const bad = fixture(10);
  bad.profile.stacks.push({ frameId: 99 });
  assert.throws(() => webprof.toCpuProfile(bad), /frameId does not name a frame/);
  assert.throws(() => webprof.toPerfettoTrace(null), TypeError);
});

test('every bad sample is refused, in any span of the bulk load', () => {
  // Spans hold 4096 samples: the bad row sits in the first or a later span.
  for (const at of [0, 5, 4095, 4096, 9000]) {
    for (const [patch, message] of [
      [{ timestamp: NaN }, /timestamp must be a finite number/],
      [{ timestamp: -1 }, /timestamp must be a finite number/],
      [{ timestamp: Infinity }, /timestamp must be a finite number/],
      [{ timestamp: 1 }, /earlier than the previous sample/],
      [{ stackId: 1.5 }, /stackId does not name a stack/],
      [{ stackId: -2 }, /stackId does not name a stack/],
      [{ stackId: 99 }, /stackId does not name a stack/],
      [{ stackId: 7 }, /stackId does not name a stack/], // one past the last
      // Non-integers next to integers (rounding must not accept them).
      [{ stackId: 2.5 }, /stackId does not name a stack/],
      [{ stackId: 0.9999999999999999 }, /stackId does not name a stack/],
      [{ stackId: 1e-300 }, /stackId does not name a stack/],
      [{ stackId: -0.5 }, /stackId does not name a stack/],
      [{ stackId: -1.5 }, /stackId does not name a stack/],
      [{ stackId: NaN }, /stackId does not name a stack/],
      [{ stackId: 2 ** 32 + 1 }, /stackId does not name a stack/],
      [{ stackId: 1, timestamp: NaN }, /timestamp must be a finite number/], // time first
    ]) {
      if (at === 0 && patch.timestamp === 1) continue; // nothing before it
      const input = fixture(10000);
      Object.assign(input.profile.samples[at], patch);
      assert.throws(() => webprof.toChromeTrace(input), message, `row ${at} ${JSON.stringify(patch)}`);
    }
  }
  const ok = fixture(10000);
  ok.profile.samples[4096].stackId = -0; // -0 is stack 0
  assert.ok(webprof.toChromeTrace(ok).byteLength > 0);
});

test('duplicate W3C stack rows are merged and their samples follow', () => {
  const base = fixture(9000);
  const dup = fixture(9000);
  const { stacks, samples } = dup.profile;
  // Every stack row again (same frame, same parent): ids 7..13 duplicate 0..6.
  const n = stacks.length;
  for (let i = 0; i < n; i++) stacks.push({ ...stacks[i] });
  samples.forEach((s, i) => {
    if (s.stackId !== undefined && i % 2) s.stackId += n;
  });
  for (const exporter of [webprof.toChromeTrace, webprof.toCpuProfile]) {
    assert.equal(text(exporter(dup)), text(exporter(base)));
  }
});

test('a trace loaded in spans exports like the same trace recorded in place', () => {
  const s = new webprof.TraceSession({ maxBufferSize: 20000 });
  try {
    const r = s.resource('https://example.test/a.js');
    const frames = ['a', 'b', 'c'].map((name, i) => s.frame({ name, resourceId: r, line: i + 1, column: 2 }));
    const root = s.stack(frames[0]);
    const leaves = [root, s.stack(frames[1], root), s.stack(frames[2], root)];
    for (let i = 0; i < 9500; i++) s.sample(1 + i * 0.999, i % 11 ? leaves[i % 3] : undefined);
    for (const exporter of [webprof.toChromeTrace, webprof.toCpuProfile, webprof.toPerfettoTrace]) {
      const direct = new Uint8Array(exporter({ profile: s }));
      const loaded = new Uint8Array(exporter({ profile: s.toTrace() }));
      assert.deepEqual(loaded, direct);
    }
  } finally {
    s.dispose();
  }
});

test('empty input still gives valid files', () => {
  const doc = JSON.parse(text(webprof.toChromeTrace({})));
  assert.equal(doc.traceEvents.length, 2);
  const p = JSON.parse(text(webprof.toCpuProfile({})));
  assert.equal(p.nodes.length, 1);
  assert.ok(webprof.toPerfettoTrace({}).byteLength > 0);
});

test('a TraceSession is exported in place, same output as its toTrace()', () => {
  const s = new webprof.TraceSession({ maxBufferSize: 100 });
  try {
    const r = s.resource('https://example.test/a.js');
    const f = s.frame({ name: 'work', resourceId: r, line: 3, column: 4 });
    const st = s.stack(f);
    for (let i = 0; i < 10; i++) s.sample(1 + i, i % 3 ? st : undefined);
    const direct = text(webprof.toCpuProfile({ profile: s }));
    const viaObject = text(webprof.toCpuProfile({ profile: s.toTrace() }));
    assert.equal(direct, viaObject);
    assert.equal(JSON.parse(direct).samples.length, 10);
  } finally {
    s.dispose();
  }
});

test('the format registry: the core lists every format, toX() are its built-ins by id', () => {
  const formats = webprof.exportFormats();
  assert.deepEqual(
    formats.map((f) => [f.id, f.fileName, f.mimeType]),
    [
      ['chrome', 'trace.json', 'application/json'],
      ['cpuprofile', 'profile.cpuprofile', 'application/json'],
      ['perfetto', 'trace.pftrace', 'application/octet-stream'],
      ['pprof', 'profile.pb.gz', 'application/gzip'],
    ],
  );
  const input = fixture(50);
  const same = (a, b) => assert.deepEqual(new Uint8Array(a), new Uint8Array(b));
  same(
    webprof.exportTrace('chrome', input, { threadName: 't' }),
    webprof.toChromeTrace(input, { threadName: 't' }),
  );
  same(webprof.exportTrace('cpuprofile', input), webprof.toCpuProfile(input));
  same(webprof.exportTrace('perfetto', input), webprof.toPerfettoTrace(input));
  same(webprof.exportTrace('pprof', input), webprof.toPprof(input));
  assert.throws(
    () => webprof.exportTrace('svg', input),
    /unknown export format "svg" \(known: chrome, cpuprofile, perfetto, pprof\)/,
  );
  assert.throws(() => webprof.exportTrace('chrome', null), TypeError);
});

test('a format registered in JS is listed and exported until it is removed', () => {
  const remove = webprof.registerExportFormat({
    id: 'count',
    name: 'Sample count',
    extension: 'txt',
    mimeType: 'text/plain',
    write: (input, options) =>
      new TextEncoder().encode(`${input.profile.samples.length} ${options.threadName}`),
  });
  try {
    const f = webprof.exportFormats().at(-1);
    assert.deepEqual(f, {
      id: 'count',
      name: 'Sample count',
      extension: 'txt',
      mimeType: 'text/plain',
      fileName: 'count.txt',
    });
    const out = webprof.exportTrace('count', fixture(12), { threadName: 'w' });
    assert.ok(out instanceof ArrayBuffer);
    assert.equal(new TextDecoder().decode(out), '12 w');
    assert.throws(
      () => webprof.registerExportFormat({ ...f, write: () => new Uint8Array() }),
      /already exists/,
    );
    assert.throws(
      () => webprof.registerExportFormat({ ...f, id: 'chrome', write: () => new Uint8Array() }),
      /already exists/,
    );
    assert.throws(() => webprof.registerExportFormat({ ...f, id: 'x' }), /write function/);
    assert.throws(
      () => webprof.registerExportFormat({ ...f, id: 'x', mimeType: '', write() {} }),
      /mimeType/,
    );
  } finally {
    remove();
  }
  assert.equal(webprof.exportFormats().length, 4);
  assert.throws(() => webprof.exportTrace('count', fixture(1)), /unknown export format/);
});
