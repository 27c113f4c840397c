// The exporters live in the tools module (webprof-tools.wasm), fetched on
// first use; they stay synchronous. As a user calls them: after a Profiler's
// stop() they just work; before anything loaded the module they throw a
// WebprofError that says what to await, and loadExporters() makes them work;
// a module that cannot load says why. Its Wasm is webprof's own as the core's
// is: a native trace's frames in it are dropped like the core's. Each case runs
// in a fresh Node process (one core and one tools module each) over the browser
// build, dist/webprof.mjs.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runWithFreshWebprof } from '../support/fresh-webprof.mjs';

const run = (body) =>
  runWithFreshWebprof(`const trace = { resources: ['https://a/x.js'], frames: [{ name: 'f', resourceId: 0, line: 1, column: 1 }],
  stacks: [{ frameId: 0 }], samples: [{ timestamp: 1, stackId: 0 }, { timestamp: 2, stackId: 0 }] };
const attempt = (fn) => { try { return { ok: fn() }; } catch (e) { return { name: e.name, code: e.code, message: e.message }; } };
${body}`);

test('an export before the exporters loaded throws a WebprofError naming loadExporters(); after it, it works; formats are listed and added before', () => {
  const r = run(`await w.ready;
const before = attempt(() => w.toChromeTrace({ profile: trace }).byteLength);
const formats = attempt(() => w.exportFormats().map((f) => f.id).join());
const registered = attempt(() => typeof w.registerExportFormat({ id: 'mine', name: 'Mine', extension: 'txt', mimeType: 'text/plain', write: () => new Uint8Array(1) }));
const mine = attempt(() => w.exportTrace('mine', { profile: trace }).byteLength);
const summary = attempt(() => w.summarize(trace).samples);
await w.loadExporters();
const after = attempt(() => JSON.parse(new TextDecoder().decode(w.toChromeTrace({ profile: trace }))).traceEvents.length);
console.log(JSON.stringify({ before, formats, registered, mine, summary, after, n: w.exportFormats().length, s: w.summarize(trace).samples }));`);
  // Listing and adding formats need only the load-time core (the core declares its formats).
  assert.equal(r.formats.ok, 'chrome,cpuprofile,perfetto,pprof');
  assert.equal(r.registered.ok, 'function');
  assert.equal(r.mine.ok, 1);
  for (const e of [r.before, r.summary]) {
    assert.equal(e.name, 'WebprofError');
    assert.equal(e.code, 'NotLoaded');
    assert.match(e.message, /await webprof\.loadExporters\(\)/);
  }
  assert.ok(r.after.ok > 0);
  assert.equal(r.n, 5);
  assert.equal(r.s, 2);
});

test("a Profiler's stop() resolves with the exporters loaded: toChromeTrace(trace) right after it", () => {
  const r = run(`const p = new w.Profiler({ sampleInterval: 1, maxBufferSize: 1000, backend: 'polyfill' });
const end = Date.now() + 30; while (Date.now() < end) w.probe();
const t = await p.stop();
const out = attempt(() => w.toChromeTrace({ profile: t }).byteLength);
const pf = attempt(() => w.toPerfettoTrace({ profile: t }).byteLength);
console.log(JSON.stringify({ out, pf, samples: t.samples.length }));`);
  assert.ok(r.samples > 0);
  assert.ok(r.out.ok > 0, JSON.stringify(r.out));
  assert.ok(r.pf.ok > 0, JSON.stringify(r.pf));
});

test('a tools module that cannot load: stop() still resolves with the trace, exports say why', () => {
  const r = run(`globalThis.webprofToolsWasmUrl = 'file:///nonexistent/webprof-tools.wasm';
const p = new w.Profiler({ sampleInterval: 1, maxBufferSize: 1000, backend: 'polyfill' });
const end = Date.now() + 20; while (Date.now() < end) w.probe();
const t = await p.stop();
const out = attempt(() => w.toChromeTrace({ profile: t }));
const load = await w.loadExporters().then(() => 'loaded', (e) => e.message);
console.log(JSON.stringify({ out, load, samples: t.samples.length }));`);
  assert.ok(r.samples > 0);
  assert.equal(r.out.name, 'WebprofError');
  assert.match(
    r.out.message,
    /could not load the Wasm core from file:\/\/\/nonexistent\/webprof-tools\.wasm/,
  );
  assert.match(r.load, /nonexistent\/webprof-tools\.wasm/);
});

// Chromium's native Profiler samples the tools module's Wasm while a stop()
// loads it and copies the trace into it (a navigating `record --native` wrote
// its frames): its URL joins the core's in the own-frame rule
// (js/profiler/deferred.mjs configureSampler). Where the Playwright agent puts
// it, a data: URL that Chromium cuts to 1024 characters: not under webprof's
// own script directory, so only that rule can drop its frames.
test("a native trace's frames in the tools module's Wasm are webprof's own, as the core's are", () => {
  const r = run(`const tools = 'data:application/wasm;base64,' + 'AGFzbQEAAAAB'.repeat(400);
globalThis.webprofToolsWasmUrl = tools;
const app = 'data:application/wasm;base64,' + 'AGFzbQEAAAAC'.repeat(400);
await w.ready;
const t = w.importTrace({
  resources: ['https://a.test/app.js', tools.slice(0, 1024), app.slice(0, 1024)],
  frames: [{ name: 'main', resourceId: 0, line: 1, column: 1 }, { name: 'wasm-function[7]', resourceId: 1 },
    { name: 'wasm-function[3]', resourceId: 2 }],
  stacks: [{ frameId: 0 }, { frameId: 1, parentId: 0 }, { frameId: 2, parentId: 0 }],
  samples: [{ timestamp: 1, stackId: 1 }, { timestamp: 2, stackId: 2 }],
});
const leaf = (s) => s.stackId === undefined ? null : t.frames[t.stacks[s.stackId].frameId].name;
console.log(JSON.stringify({ leaves: t.samples.map(leaf) }));`);
  // The tools module's frame goes (its sample lands on its caller); the
  // app's own Wasm, also a data: URL, stays.
  assert.deepEqual(r.leaves, ['main', 'wasm-function[3]']);
});

const toolsWasm = fileURLToPath(new URL('../../dist/webprof-tools.wasm', import.meta.url));

// A port nobody listens on now, for a server the fresh process opens itself
// (the tools module's URL must be set before its page core loads).
async function freePort() {
  const { createServer } = await import('node:net');
  const s = createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

// `serve` is the body of an http handler (req, res, n: the request's number from 1).
const withToolsServer = (port, serve, body) =>
  run(`globalThis.webprofToolsWasmUrl = 'http://127.0.0.1:${port}/webprof-tools.wasm';
const { createServer } = await import('node:http');
const { readFileSync } = await import('node:fs');
const wasm = readFileSync(${JSON.stringify(toolsWasm)});
let n = 0;
const server = createServer((req, res) => { n++; (${serve})(req, res, n, wasm); });
await new Promise((resolve) => server.listen(${port}, '127.0.0.1', resolve));
const p = new w.Profiler({ sampleInterval: 1, maxBufferSize: 1000, backend: 'polyfill' });
const end = Date.now() + 20; while (Date.now() < end) w.probe();
${body}
server.closeAllConnections(); server.close();`);

test('a tools module whose fetch failed is fetched again by the next loadExporters()', async () => {
  const r = withToolsServer(
    await freePort(),
    `(req, res, n, wasm) => { if (n === 1) { res.destroy(); return; }
      res.writeHead(200, { 'content-type': 'application/wasm' }); res.end(wasm); }`,
    `const t = await p.stop();
const first = attempt(() => w.toChromeTrace({ profile: t }));
const load = await w.loadExporters().then(() => 'loaded', (e) => e.message);
const after = attempt(() => w.toChromeTrace({ profile: t }).byteLength);
console.log(JSON.stringify({ first, load, after, requests: n, samples: t.samples.length }));`,
  );
  assert.ok(r.samples > 0);
  assert.equal(r.first.name, 'WebprofError');
  assert.equal(r.load, 'loaded');
  assert.ok(r.after.ok > 0, JSON.stringify(r.after));
  assert.equal(r.requests, 2);
});

test('a tools module whose fetch never answers holds stop() back 10 s at most; it works once loaded', async () => {
  const r = withToolsServer(
    await freePort(),
    `() => {}`,
    `const t0 = Date.now();
const t = await p.stop();
const waited = Date.now() - t0;
const out = attempt(() => w.toChromeTrace({ profile: t }));
console.log(JSON.stringify({ waited, out, samples: t.samples.length }));
process.exit(0);`,
  );
  assert.ok(r.samples > 0);
  assert.ok(r.waited >= 9000 && r.waited < 60000, `stop() took ${r.waited} ms`);
  assert.equal(r.out.code, 'NotLoaded');
  assert.match(r.out.message, /await webprof\.loadExporters\(\)/);
});

// RuntimeProfiler's results() cannot wait: when the tools module (its source
// scanner) has not arrived, it is read and compiled at once
// (js/core/wasm-bytes.mjs readBytesSync) — in Node from its file: URL, and
// from a data: URL as the Playwright agent ships it. The definition line of a
// function is there only if the module was.
const workDir = mkdtempSync(join(tmpdir(), 'webprof-sync-tools-'));
const workFile = join(workDir, 'work.mjs');
writeFileSync(
  workFile,
  `// Samples inside work() until the runtime holds n more.
export function work(w, n) {
  const target = w.RuntimeProfiler.stats().samples + n;
  while (w.RuntimeProfiler.stats().samples < target) w.probe();
}
`,
);
after(() => rmSync(workDir, { recursive: true, force: true }));

for (const [how, setup] of [
  ['its file: URL beside the core', ''],
  [
    'a data: URL',
    `import { readFileSync } from 'node:fs';
globalThis.webprofToolsWasmUrl = 'data:application/wasm;base64,' + readFileSync(${JSON.stringify(toolsWasm)}).toString('base64');`,
  ],
]) {
  test(`results() before the tools module arrived reads it at once, from ${how}`, () => {
    const r = runWithFreshWebprof(`${setup}
await w.ready;
const { work } = await import(${JSON.stringify(pathToFileURL(workFile).href)});
// start(), the work, stop() and results() in one task: start()'s fetch of
// the tools module cannot have been taken in yet.
const p = new w.RuntimeProfiler();
p.start(undefined, 10);
work(w, 3);
p.stop();
const stack = [p.results()];
let found = null;
while (stack.length) {
  const n = stack.pop();
  if (n.function && n.function.name === 'work') found = n.function;
  stack.push(...n.children);
}
console.log(JSON.stringify({ work: found }));`);
    assert.deepEqual(r.work, { file: pathToFileURL(workFile).href, line: 2, name: 'work' });
  });
}
