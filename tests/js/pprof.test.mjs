// pprof export read by its reference consumer: `go tool pprof` (Debian's
// golang-go, installed by .ci/setup.sh) on the profile.pb.gz `webprof
// record` writes, against the .cpuprofile of the same recording.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ready, toPprof, exportFormats, loadExporters } from 'webprof';
import { serveRecordPages } from '../support/record-pages.mjs';
import { webprofCli } from '../support/spawn.mjs';
import { goPprofTop } from '../support/pprof.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORKLOAD = ['weightedHeavy', 'weightedMedium', 'weightedLight'];
const pages = serveRecordPages();

// Self samples per function name, from a .cpuprofile's hitCounts.
function cpuprofileHits(cpu) {
  const hits = new Map();
  for (const n of cpu.nodes) {
    const name = n.callFrame.functionName;
    if (n.hitCount) hits.set(name, (hits.get(name) ?? 0) + n.hitCount);
  }
  return hits;
}

test('go tool pprof -top ranks a recording like its .cpuprofile', { timeout: 180_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-pprof-'));
  const r = await webprofCli(['record', `${pages.base}/weighted.html`, '--seconds', '2', '--out', out]);
  assert.equal(r.status, 0, r.stderr);

  const top = await goPprofTop(join(out, 'profile.pb.gz'));
  assert.equal(top.status, 0, top.stderr);
  assert.match(top.stdout, /Type: cpu/);
  const period = Number(/period: (\d+)/.exec(decodeRaw(join(out, 'profile.pb.gz')))?.[1]);
  assert.ok(period > 0, 'a period');
  const rows = top.rows.filter((x) => x.flatNs > 0);
  const hits = cpuprofileHits(JSON.parse(readFileSync(join(out, 'profile.cpuprofile'), 'utf8')));
  // Every function with self time, and only those, in .cpuprofile order:
  // pprof lists by flat time, descending, and each flat is hits x period
  // (as exact as pprof prints it; CI saw 0.17s for 167.2 ms).
  assert.deepEqual(new Set(rows.map((x) => x.name)), new Set(hits.keys()), top.stdout);
  for (let i = 1; i < rows.length; i++)
    assert.ok(
      hits.get(rows[i - 1].name) >= hits.get(rows[i].name),
      `${rows[i - 1].name} before ${rows[i].name}`,
    );
  for (const row of rows) {
    const want = hits.get(row.name) * period;
    assert.ok(Math.abs(row.flatNs - want) <= row.printedTo + 1, `${row.name}: ${row.flatNs} vs ${want}`);
  }
  const rank = rows.map((x) => x.name);
  for (const name of WORKLOAD) assert.ok(rank.includes(name), `${name} in\n${top.stdout}`);
  // 24 ms vs 4 ms per tick: far apart whatever the sampler's noise.
  assert.ok(rank.indexOf('weightedHeavy') < rank.indexOf('weightedLight'), top.stdout);
});

function decodeRaw(file) {
  const r = spawnSync(
    'protoc',
    ['--decode=perftools.profiles.Profile', '-I', join(root, 'tests/fixtures/pprof'), 'profile.proto'],
    {
      input: gunzipSync(readFileSync(file)),
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('toPprof writes a gzip member holding profile.proto; the registry lists it', async () => {
  await ready;
  await loadExporters(); // exports without a Profiler's stop()
  assert.ok(exportFormats().some((f) => f.id === 'pprof' && f.fileName === 'profile.pb.gz'));
  const trace = {
    resources: ['https://x.test/a.js'],
    frames: [
      { name: 'outer', resourceId: 0, line: 1, column: 1 },
      { name: 'inner', resourceId: 0, line: 5, column: 3 },
    ],
    stacks: [{ frameId: 0 }, { frameId: 1, parentId: 0 }],
    samples: [
      { timestamp: 0, stackId: 1 },
      { timestamp: 1, stackId: 1 },
      { timestamp: 2, stackId: 0 },
      { timestamp: 3 },
    ],
  };
  const gz = new Uint8Array(toPprof({ profile: trace }));
  assert.deepEqual([gz[0], gz[1]], [0x1f, 0x8b]);
  const dir = mkdtempSync(join(tmpdir(), 'webprof-pprof-'));
  writeFileSync(join(dir, 'p.pb.gz'), gz);
  const decoded = decodeRaw(join(dir, 'p.pb.gz'));
  for (const s of ['outer', 'inner', 'https://x.test/a.js', '(program)', 'nanoseconds'])
    assert.ok(decoded.includes(`string_table: "${s}"`), s);
  assert.match(decoded, /period: 1000000/);
  // inner: 2 samples of 1 ms, leaf first; outer: 1; (program): 1.
  assert.match(decoded, /location_id: 2\n\s+location_id: 1\n\s+value: 2\n\s+value: 2000000/);
});
