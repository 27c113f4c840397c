// The probes' own core (dist/webprof-probes.wasm, wasm/CMakeLists.txt): no
// embind, no Emscripten loader; js/core/wasm-probes.mjs instantiates it with
// two imports (WASI's proc_exit, a memory-growth note). It declares the boundary exactly as
// the page's core does (one writer: boundary.h DeclarationsJson), and its
// exports run a probes window, the console reporter's text and the
// instance's health the way js/core/boundary.mjs calls them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createProbesCore } from '../../js/core/wasm-probes.mjs';

const dist = new URL('../../dist/', import.meta.url);
const bytes = readFileSync(new URL('webprof-probes.wasm', dist));
const m = await createProbesCore({ wasmBinary: bytes });
const page = await createProbesCore({ wasmBinary: readFileSync(new URL('webprof-core.wasm', dist)) });

const text = (ptr, len, core = m) => new TextDecoder().decode(core.HEAPU8.slice(ptr, ptr + len));
const declarations = (core = m) => JSON.parse(text(core._wp_boundary(), core._wp_boundary_len(), core));
function scratch(s) {
  const max = s.length * 3;
  const ptr = m._wp_scratch(max);
  const { written } = new TextEncoder().encodeInto(s, m.HEAPU8.subarray(ptr, ptr + max));
  return [ptr, written];
}

test('it imports only proc_exit and a growth note, and exports no embind and no loader', () => {
  const mod = new WebAssembly.Module(bytes);
  assert.deepEqual(
    WebAssembly.Module.imports(mod).map((i) => `${i.module}.${i.name}`),
    ['env.emscripten_notify_memory_growth', 'wasi_snapshot_preview1.proc_exit'],
  );
  const names = WebAssembly.Module.exports(mod).map((e) => e.name);
  assert.ok(names.includes('wp_probes_aggr_start') && names.includes('wp_boundary'), names.join());
  assert.ok(!names.some((n) => /embind|session|profiler|export/.test(n)), names.join());
  // Only what the probes need is linked: no sampler, no exporter, no scanner.
  for (const t of ['traceEvents', 'perfetto', 'sourcesContent', 'GeckoMain']) {
    assert.ok(!bytes.includes(t), `the probes' core carries "${t}"`);
  }
});

test("it declares the boundary exactly as the page's core (one writer, no drift)", () => {
  const own = declarations();
  assert.deepEqual(own, declarations(page));
  assert.equal(
    own.statusText[own.status.NotRecording],
    'no probe recording window is open (call start first)',
  );
});

test('a window through its exports: aggregates, marks, traces, the report records', () => {
  const b = declarations();
  const name = m._wp_probes_intern(...scratch('work'));
  assert.ok(name >= 0);
  assert.equal(m._wp_probes_start(100, NaN, NaN), 1);
  for (let i = 0; i < 3; i++) {
    assert.equal(m._wp_probes_admit_aggr_start(name), 1);
    const id = m._wp_probes_aggr_start(name, 100 + i * 10);
    assert.equal(m._wp_probes_aggr_end(id, 102 + i * 10), 1);
  }
  assert.equal(m._wp_probes_mark(name, 130, -1), 1);
  const trace = m._wp_probes_trace_start(name, 131, 0);
  assert.equal(m._wp_probes_trace_end(trace, 135, 0), 1);
  assert.equal(m._wp_probes_end(140), b.status.Ok);
  assert.equal(m._wp_probes_end(141), b.status.NotRecording);
  const ptr = m._wp_probes_report() >> 3;
  const f = m.HEAPF64.slice(ptr, ptr + m._wp_probes_report_len());
  const { reportHeader: H, aggrRow: A, markRow: M, traceRow: T } = b.records;
  assert.equal(f[H.aggregateCount], 1);
  assert.equal(f[H.startedAt], 100);
  assert.equal(f[H.endedAt], 140);
  assert.equal(f[H.size + A.name], name);
  assert.equal(f[H.size + A.count], 3);
  assert.equal(f[H.size + A.sum], 6);
  assert.equal(f[H.markCount], 3); // start, work, end
  const marks = H.size + A.size;
  assert.equal(f[marks + M.size + M.timestamp], 130);
  const traces = marks + 3 * M.size;
  assert.equal(f[H.traceCount], 1);
  assert.equal(f[traces + T.duration], 4);
  assert.equal(f[traces + T.info], 0);
});

test("the console reporter's text comes from its core", () => {
  const b = declarations();
  const ptr = m._wp_probes_report() >> 3;
  const gen = m.HEAPF64[ptr + b.records.reportHeader.generation];
  assert.equal(m._wp_probes_fmt_window(gen), b.status.Ok);
  m._wp_probes_fmt_info(0, 1, ...scratch('{"n":1}'));
  const key = m._wp_probes_sort_key(...scratch('sum'));
  assert.ok(key >= 0);
  const out = text(m._wp_probes_fmt_run(key, 1, b.consoleFilter.None, 0, 0), m._wp_probes_fmt_len());
  assert.match(out, /work/);
  assert.match(out, /\{"n":1\}/);
  assert.ok(m._wp_probes_sort_key(...scratch('nope')) < b.noId);
});

test('a trap poisons it: every later entry is refused', async () => {
  // A fresh instance: this one is poisoned for good afterwards.
  const t = await createProbesCore({ wasmBinary: bytes });
  const b = declarations();
  assert.equal(t._wp_health(), 1);
  t._wp_debug_trap();
  assert.throws(() => t._wp_probes_start(1, NaN, NaN), WebAssembly.RuntimeError);
  assert.equal(t._wp_health(), 0);
  assert.equal(t._wp_probes_end(2), b.status.Trapped);
  assert.equal(t._wp_probes_aggr_start(0, 3), b.noId - b.status.Trapped);
});

test('memory grows from inside the module; the HEAP views follow', () => {
  const before = m.HEAPU8.length;
  const big = 'x'.repeat(before); // the scratch buffer grows past the memory
  const [ptr, len] = scratch(big);
  assert.equal(len, big.length);
  assert.ok(m.HEAPU8.length > before);
  assert.equal(m.HEAPU8[ptr + len - 1], 'x'.charCodeAt(0));
});
