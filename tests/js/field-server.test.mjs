// The field-collection example server (examples/field-server/) as a user
// runs it: the folder with `webprof` installed beside it, started on a port,
// fed over HTTP. A real trace (V8's sampler on a bundle esbuild minified in
// this setup) posted gzipped is stored under its release with its frames
// mapped through that release's map on disk; every kind of bad request gets
// its own clear 4xx and stores nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildMinifiedApp, cpuProfileToTrace, ORIGINAL } from '../support/minified-workload.mjs';
import { installFieldServer, listen } from '../support/field-server.mjs';
import { goPprofTop } from '../support/pprof.mjs';

let work;
let data;
let maps;
const RELEASE = 'shop-1.4.2';
const SCRIPT = 'https://shop.example/assets/app.js';
let server;
let base;
let trace; // a V8 recording of the minified bundle, as the page would send it

before(async () => {
  const installed = await installFieldServer();
  ({ data, maps } = installed);
  work = installed.dir;
  server = installed.module.createFieldServer({
    data,
    maps,
    maxBodyBytes: 256 * 1024,
    maxJsonBytes: 1024 * 1024,
  });
  base = await listen(server);

  const dir = join(work, 'build');
  await buildMinifiedApp(dir, { platform: 'node' });
  const prof = join(dir, 'prof');
  const r = spawnSync(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${prof}`, '--cpu-prof-interval=500', join(dir, 'app.js'), '300'],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  const cpu = JSON.parse(readFileSync(join(prof, readdirSync(prof)[0]), 'utf8'));
  const t = cpuProfileToTrace(cpu);
  // Served from the shop's origin: the script URL the map directory mirrors.
  trace = { ...t, resources: t.resources.map((u) => (u.endsWith('/app.js') ? SCRIPT : u)) };
  mkdirSync(join(maps, RELEASE, 'assets'), { recursive: true });
  copyFileSync(join(dir, 'app.js.map'), join(maps, RELEASE, 'assets', 'app.js.map'));
});
after(() => server?.close());

const payload = (over = {}) => ({
  format: 'webprof-field/1',
  release: RELEASE,
  page: 'https://shop.example/cart',
  userAgent: 'test',
  sampler: 'native',
  sampleInterval: 0.5,
  reason: 'pagehide',
  samples: { recorded: trace.samples.length, sent: trace.samples.length, idleDropped: 0, thinnedDropped: 0 },
  trace,
  ...over,
});
const post = (body, headers = {}) => fetch(`${base}/ingest`, { method: 'POST', body, headers });
const stored = (release = RELEASE) => {
  try {
    return readdirSync(join(data, release));
  } catch {
    return [];
  }
};

test('a gzipped payload is stored under its release, frames mapped to the original functions', async () => {
  const res = await post(gzipSync(JSON.stringify(payload())));
  const answer = await res.json();
  assert.equal(res.status, 202, JSON.stringify(answer));
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(answer.release, RELEASE);
  assert.ok(answer.mapped > 0);
  assert.deepEqual(answer.mapErrors, []);
  const files = stored();
  assert.deepEqual(files, [`${answer.id}.json`]);
  const saved = JSON.parse(readFileSync(join(data, RELEASE, files[0]), 'utf8'));
  assert.equal(saved.field.page, 'https://shop.example/cart');
  assert.equal(saved.field.release, RELEASE);
  assert.equal(saved.trace, undefined, 'the stored file is the W3C trace itself');
  const names = new Set();
  for (const f of saved.frames) {
    if (!f.generated) continue;
    assert.equal(f.generated.resourceId, saved.resources.indexOf(SCRIPT));
    const url = saved.resources[f.resourceId];
    const orig = ORIGINAL[f.name];
    if (!orig) continue;
    assert.ok(url.endsWith(`/src/${orig.file}`), `${f.name} in ${url}`);
    assert.equal(f.line, orig.line, f.name);
    names.add(f.name);
  }
  assert.ok(names.has('render'), [...names].join(', '));

  // Plain JSON (a browser without CompressionStream) is stored the same way.
  const plain = await post(JSON.stringify(payload()));
  assert.equal(plain.status, 202);
  assert.equal(stored().length, 2);
  const list = await (await fetch(`${base}/releases`)).json();
  assert.deepEqual(list, [{ release: RELEASE, profiles: 2, pprof: `/pprof/${RELEASE}` }]);

  // The release's merged profile, read by pprof itself from the server's URL.
  const pprof = await goPprofTop(`${base}/pprof/${RELEASE}`, { tmp: work });
  assert.equal(pprof.status, 0, pprof.stderr);
  const top = new Set(pprof.rows.map((x) => x.name));
  assert.ok(top.has('render'), pprof.stdout);
  assert.ok(top.has('parseInline') || top.has('tokenizeBlock'), pprof.stdout);
});

test('bad requests: each gets its 4xx and a sentence saying what is wrong, and nothing is stored', async () => {
  const before = stored().length;
  const cases = [
    [gzipSync('{}').subarray(0, 12), 400, /not valid gzip/],
    [Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 400, /not valid gzip/],
    ['not json at all', 400, /neither gzip .* nor a JSON object/],
    ['{"format": ', 400, /not JSON/],
    [Buffer.alloc(300 * 1024, 0x20), 413, /over the limit of 262144/],
    // A gzip bomb: 64 KiB on the wire, 2 MiB inflated, past maxJsonBytes.
    [gzipSync(Buffer.alloc(2 * 1024 * 1024, 0x20)), 413, /inflates past the limit of 1048576/],
    ['[]', 400, /neither gzip/],
    [JSON.stringify({ ...payload(), format: 'other/1' }), 422, /format is "other\/1"/],
    [JSON.stringify(payload({ release: '../etc' })), 422, /release must be/],
    [JSON.stringify(payload({ release: '_other' })), 422, /release must be/],
    [JSON.stringify(payload({ sampleInterval: 'fast' })), 422, /sampleInterval/],
    [JSON.stringify(payload({ trace: { ...trace, samples: 'no' } })), 422, /trace\.samples must be an array/],
    [JSON.stringify(payload({ trace: { ...trace, frames: [{ line: 1 }] } })), 422, /trace\.frames\[0\]/],
    [
      JSON.stringify(
        payload({
          trace: {
            resources: [],
            frames: [{ name: 'a' }],
            stacks: [{ frameId: 0, parentId: 0 }],
            samples: [],
          },
        }),
      ),
      422,
      /trace: .*earlier stack/,
    ],
    [
      JSON.stringify(
        payload({
          trace: { resources: [], frames: [], stacks: [], samples: [{ timestamp: 2 }, { timestamp: -1 }] },
        }),
      ),
      422,
      /trace: .*finite number >= 0/,
    ],
  ];
  for (const [body, status, message] of cases) {
    const res = await post(body);
    const text = await res.text();
    assert.equal(res.status, status, `${String(body).slice(0, 40)}: ${text}`);
    assert.match(JSON.parse(text).error, message);
  }
  // Streamed without a Content-Length: refused once the bytes received pass the limit, with an answer.
  const streamed = new ReadableStream({
    start(c) {
      for (let i = 0; i < 300; i++) c.enqueue(new Uint8Array(1024).fill(0x20));
      c.close();
    },
  });
  const chunked = await fetch(`${base}/ingest`, { method: 'POST', body: streamed, duplex: 'half' });
  assert.equal(chunked.status, 413);
  assert.match((await chunked.json()).error, /body is over the limit of 262144 bytes/);
  const wrongMethod = await fetch(`${base}/ingest`);
  assert.equal(wrongMethod.status, 405);
  const missing = await fetch(`${base}/pprof/no-such-release`);
  assert.equal(missing.status, 404);
  // A malformed %-escape is the client's mistake, not the server's.
  const malformed = await fetch(`${base}/pprof/%E0%A4%A`);
  assert.equal(malformed.status, 422);
  assert.match((await malformed.json()).error, /release must be/);
  assert.equal(stored().length, before);
});

test('a script URL with a malformed %-escape is stored as sampled, the rest still mapped', async () => {
  const odd = 'https://shop.example/assets/%zz.js';
  const last = trace.samples[trace.samples.length - 1].timestamp;
  const withOdd = {
    resources: [...trace.resources, odd],
    frames: [...trace.frames, { name: 'oddScript', resourceId: trace.resources.length, line: 1, column: 1 }],
    stacks: [...trace.stacks, { frameId: trace.frames.length }],
    samples: [...trace.samples, { timestamp: last + 1, stackId: trace.stacks.length }],
  };
  const before = stored().length;
  const res = await post(gzipSync(JSON.stringify(payload({ trace: withOdd }))));
  const answer = await res.json();
  assert.equal(res.status, 202, JSON.stringify(answer));
  assert.ok(answer.mapped > 0);
  assert.equal(stored().length, before + 1);
  const saved = JSON.parse(readFileSync(join(data, RELEASE, `${answer.id}.json`), 'utf8'));
  assert.ok(saved.resources.includes(odd), saved.resources.join(', '));
});

test("a payload without a release (collectProfiles()'s default) is kept under _none and served", async () => {
  const res = await post(gzipSync(JSON.stringify(payload({ release: '' }))));
  const answer = await res.json();
  assert.equal(res.status, 202, JSON.stringify(answer));
  assert.equal(answer.release, '_none');
  assert.equal(stored('_none').length, 1);
  const list = await (await fetch(`${base}/releases`)).json();
  assert.ok(
    list.some((r) => r.release === '_none' && r.profiles === 1),
    JSON.stringify(list),
  );
  const pprof = await fetch(`${base}/pprof/_none`);
  assert.equal(pprof.status, 200);
  assert.ok((await pprof.arrayBuffer()).byteLength > 0);
});
