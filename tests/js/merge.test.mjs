// Merging as a user does it: `webprof merge` and `webprof/merge` on profiles
// Chromium wrote (tests/fixtures/v8-profiles/chromium156/: a .cpuprofile from
// the DevTools protocol, a Chrome trace from tracing) and a W3C trace, in
// any mix, gzipped or not; every export format out, totals equal to the sums
// of the inputs (counted here from the files themselves), `go tool pprof
// -top` on the merged profile.pb.gz, source maps, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, createGunzip } from 'node:zlib';
import { ready, mergeProfiles, ProfileMerger, WebprofError } from 'webprof/merge';
import { exportFormats, ready as pageCoreReady, loadExporters } from 'webprof';
import { webprofCli } from '../support/spawn.mjs';
import { goPprofTop, UNIT_NS } from '../support/pprof.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'tests', 'fixtures');
const CPU = join(fixtures, 'v8-profiles', 'chromium156', 'profile.cpuprofile');
const TRACE = join(fixtures, 'v8-profiles', 'chromium156', 'trace.json');
const W3C = join(fixtures, 'traces', 'chromium156-native.json');

// Samples and time of each input, from the files (the documented rule: a
// sample lasts until the next, the last one until endTime).
const cpu = JSON.parse(readFileSync(CPU, 'utf8'));
function cpuprofileTimeNs(p) {
  let t = p.startTime;
  const times = p.timeDeltas.map((d) => (t += d)).sort((a, b) => a - b);
  return (Math.max(p.endTime, times.at(-1)) - times[0]) * 1000;
}
const traceSamples = JSON.parse(readFileSync(TRACE, 'utf8'))
  .traceEvents.filter((e) => e.name === 'ProfileChunk')
  .reduce((n, e) => n + (e.args.data.cpuProfile?.samples?.length ?? 0), 0);
const w3cSamples = JSON.parse(readFileSync(W3C, 'utf8')).samples.length;

// A gzip file is told apart by its first chunk (1 MiB) and read on after it:
// one larger than a chunk, compressed, must give what its plain text gives.
test('a gzipped file larger than one read chunk merges like its plain text', async () => {
  await ready;
  let seed = 9;
  const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const n = 600_000;
  const profile = {
    nodes: [
      {
        id: 1,
        callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 },
        children: [2, 3],
      },
      {
        id: 2,
        callFrame: {
          functionName: 'a',
          scriptId: '1',
          url: 'https://x.test/a.js',
          lineNumber: 0,
          columnNumber: 0,
        },
      },
      {
        id: 3,
        callFrame: {
          functionName: 'b',
          scriptId: '1',
          url: 'https://x.test/a.js',
          lineNumber: 9,
          columnNumber: 4,
        },
      },
    ],
    startTime: 0,
    endTime: 0,
    samples: Array.from({ length: n }, () => 2 + (rnd() < 0.5 ? 0 : 1)),
    timeDeltas: Array.from({ length: n }, () => 1 + Math.floor(rnd() * 100000)),
  };
  profile.endTime = profile.timeDeltas.reduce((a, b) => a + b, 0) + 5;
  const dir = mkdtempSync(join(tmpdir(), 'webprof-merge-'));
  const plain = join(dir, 'big.cpuprofile');
  const gz = join(dir, 'big.cpuprofile.gz');
  writeFileSync(plain, JSON.stringify(profile));
  writeFileSync(gz, gzipSync(readFileSync(plain)));
  assert.ok(readFileSync(gz).length > 1 << 20, 'the gzip file spans more than one chunk');
  const a = new ProfileMerger();
  const b = new ProfileMerger();
  try {
    assert.deepEqual({ ...b.add(gz), name: plain }, a.add(plain));
    const sums = ({ memoryBytes, wasmMemoryBytes, ...t }) => t; // buffers differ
    assert.deepEqual(sums(b.totals()), sums(a.totals()));
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('mergeProfiles adds up mixed formats; every export format, totals = sums of the inputs', async () => {
  await ready;
  await pageCoreReady;
  await loadExporters(); // exportFormats() of the package's main entry (the registry's list)
  const gz = join(mkdtempSync(join(tmpdir(), 'webprof-merge-')), 'profile.cpuprofile.gz');
  writeFileSync(gz, gzipSync(readFileSync(CPU)));
  const r = await mergeProfiles([CPU, TRACE, readFileSync(W3C), gz]);
  assert.deepEqual(
    r.inputs.map((i) => i.format),
    ['.cpuprofile', 'Chrome trace JSON', 'W3C ProfilerTrace JSON', '.cpuprofile'],
  );
  assert.equal(r.inputs[0].samples, cpu.samples.length);
  assert.equal(r.inputs[0].timeNs, cpuprofileTimeNs(cpu));
  assert.equal(r.inputs[1].samples, traceSamples);
  assert.equal(r.inputs[2].samples, w3cSamples);
  assert.deepEqual(r.inputs[3], { ...r.inputs[0], name: gz });
  const sum = (k) => r.inputs.reduce((n, i) => n + i[k], 0);
  assert.equal(r.totals.inputs, 4);
  assert.equal(r.totals.samples, 2 * cpu.samples.length + traceSamples + w3cSamples);
  assert.equal(r.totals.samples, sum('samples'));
  assert.equal(r.totals.timeNs, sum('timeNs'));
  for (const f of exportFormats()) assert.ok(r.files[f.fileName]?.byteLength > 0, f.fileName);

  // .cpuprofile carries counts (hitCount) and times (timeDeltas, endTime).
  const merged = JSON.parse(Buffer.from(r.files['profile.cpuprofile']).toString('utf8'));
  assert.equal(
    merged.nodes.reduce((n, x) => n + x.hitCount, 0),
    r.totals.samples,
  );
  assert.ok(Math.abs((merged.endTime - merged.startTime) * 1000 - r.totals.timeNs) <= 1000);
  // Read back (the merge's own outputs are inputs too), the same time.
  const again = await mergeProfiles([
    new Uint8Array(r.files['trace.json']),
    new Uint8Array(r.files['profile.cpuprofile']),
  ]);
  assert.equal(again.inputs[0].samples, r.totals.stacks);
  for (const i of again.inputs)
    assert.ok(Math.abs(i.timeNs - r.totals.timeNs) <= 1000, `${i.format}: ${i.timeNs}`);
});

test('ProfileMerger: streams, bounded memory, a bad input changes nothing', async () => {
  await ready;
  const m = new ProfileMerger();
  try {
    await streamsAndErrors(m);
  } finally {
    m.dispose();
  }
  assert.throws(() => m.totals(), /disposed/);
});

async function streamsAndErrors(m) {
  const first = m.add(CPU);
  const streamed = await m.addStream(createReadStream(CPU), 'stream');
  assert.deepEqual({ ...streamed, name: CPU }, first);
  const memory = m.totals().memoryBytes;
  for (let i = 0; i < 100; i++) m.add(CPU);
  assert.equal(m.totals().memoryBytes, memory, 'memory does not grow with the number of inputs');
  assert.equal(m.totals().samples, 102 * cpu.samples.length);
  const before = m.totals();
  assert.throws(
    () => m.add(readFileSync(CPU).subarray(0, 500), 'cut.cpuprofile'),
    (e) =>
      e instanceof WebprofError &&
      /^webprof: cut\.cpuprofile: \.cpuprofile: truncated at byte 500/.test(e.message),
  );
  assert.throws(() => m.add('{"hello":1}', 'x.json'), /x\.json: not a profile webprof reads/);
  assert.throws(() => m.add(join(root, 'no-such.json')), /no-such\.json: no such file/);
  await assert.rejects(
    m.addStream(createReadStream(gzipPath()).pipe(createGunzip()), 'gz'),
    /gz: W3C trace: stack 0: a stack's parentId/,
  );
  assert.deepEqual(m.totals(), before);
}

// A gzipped W3C trace whose stack is its own parent (a cycle).
function gzipPath() {
  const p = join(mkdtempSync(join(tmpdir(), 'webprof-merge-')), 'cycle.json.gz');
  const trace = {
    resources: [],
    frames: [{ name: 'f' }],
    stacks: [{ frameId: 0, parentId: 0 }],
    samples: [],
  };
  writeFileSync(p, gzipSync(JSON.stringify(trace)));
  return p;
}

test(
  'webprof merge: files in, every format out, go tool pprof -top lists the functions',
  { timeout: 120_000 },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'webprof-merge-cli-'));
    const r = await webprofCli(['merge', CPU, TRACE, W3C, '--out', out]);
    assert.equal(r.status, 0, r.stderr);
    const total = cpu.samples.length + traceSamples + w3cSamples;
    assert.match(r.stdout, new RegExp(`^merged 3 inputs \\(\\d+ profiles\\): ${total} samples, [\\d.]+ ms`));
    for (const f of ['trace.json', 'profile.cpuprofile', 'trace.pftrace', 'profile.pb.gz'])
      assert.ok(existsSync(join(out, f)), f);

    const top = await goPprofTop(join(out, 'profile.pb.gz'));
    assert.equal(top.status, 0, top.stderr);
    const rows = new Map(top.rows.map((x) => [x.name, x.flatNs]));
    for (const name of ['spin', 'leaf', 'recurse', 'outer', 'run'])
      assert.ok(rows.has(name), `${name} in\n${top.stdout}`);
    assert.ok(rows.get('spin') >= rows.get('leaf'), top.stdout);
    // pprof's own total is the merged time (what the CLI printed).
    const printed = Number(/samples, ([\d.]+) ms/.exec(r.stdout)[1]);
    const shown = /of ([\d.]+)(ns|us|µs|ms|s|mins|hrs) total/.exec(top.stdout);
    assert.ok(shown, top.stdout);
    const shownMs = (Number(shown[1]) * UNIT_NS[shown[2]]) / 1e6;
    assert.ok(Math.abs(shownMs - printed) <= printed * 0.01, `${shownMs} vs ${printed}`);
  },
);

test('webprof merge --source-maps names minified functions by their original', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'webprof-merge-maps-'));
  // min.js: functions at 1:10 and 1:30 are `render` of src/app.js line 5.
  writeFileSync(
    join(dir, 'min.js.map'),
    JSON.stringify({ version: 3, sources: ['src/app.js'], names: ['render'], mappings: 'SAIAA,oBAAAA' }),
  );
  const trace = {
    resources: ['https://cdn.test/assets/min.js?v=3'],
    frames: [
      { name: 'a', resourceId: 0, line: 1, column: 10 },
      { name: 'b', resourceId: 0, line: 1, column: 30 },
    ],
    stacks: [{ frameId: 0 }, { frameId: 1 }],
    samples: [
      { timestamp: 0, stackId: 0 },
      { timestamp: 1, stackId: 1 },
    ],
  };
  writeFileSync(join(dir, 'trace.json'), JSON.stringify(trace));
  const out = join(dir, 'out');
  const r = await webprofCli(['merge', join(dir, 'trace.json'), '--source-maps', dir, '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  const p = JSON.parse(readFileSync(join(out, 'profile.cpuprofile'), 'utf8'));
  const named = p.nodes.filter((n) => n.callFrame.url);
  assert.deepEqual(
    named.map((n) => [n.callFrame.functionName, n.callFrame.url, n.callFrame.lineNumber, n.hitCount]),
    [['render', 'src/app.js', 4, 2]],
  );
});

test('webprof merge: usage and errors', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'webprof-merge-err-'));
  writeFileSync(
    join(dir, 'bad.cpuprofile'),
    '{"nodes":[{"id":1,"callFrame":{"functionName":"f"},"parent":1}],"samples":[],"timeDeltas":[],"startTime":0}',
  );
  let r = await webprofCli(['merge', CPU, join(dir, 'bad.cpuprofile'), '--out', join(dir, 'o')]);
  assert.equal(r.status, 1);
  assert.match(
    r.stderr,
    /^webprof merge: .*bad\.cpuprofile: \.cpuprofile: node 1's parent 1 is not an earlier node/,
  );
  r = await webprofCli([
    'merge',
    CPU,
    join(dir, 'bad.cpuprofile'),
    '--skip-invalid',
    '--out',
    join(dir, 'o'),
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^merged 1 input \(1 profiles, 1 skipped\)/);
  r = await webprofCli(['merge', '--out', dir]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /webprof merge: no input files/);
  r = await webprofCli(['merge', '--help']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^usage: webprof merge/);
  r = await webprofCli(['--help']);
  assert.match(r.stdout, /webprof merge <file>/);
});
