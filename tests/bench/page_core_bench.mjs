// The page core's hot paths for two builds of webprof-core.wasm in the same
// run (e.g. objects compiled -O3 vs -Oz): `node tests/bench/page_core_bench.mjs
// WASM_A WASM_B [rounds]`. Each round runs one child process per build
// (the source modules, the core loaded from the given file through the
// webprofWasmUrl override; a .wasm in another checkout's dist/ runs with that
// checkout's js/, whose calls match its core's exports), interleaved A, B,
// A, B…; prints the median of
// each figure and B/A. Figures: a polyfill sample from its stack text (the
// parse, the script's classification, interning frames and stacks: what
// resolving a deferred capture costs in the core), an aggrStart/aggrEnd
// pair, a traceStart/traceEnd pair, a TraceSession.sample, a 210 k-sample
// trace handed out as the W3C object (what stop() returns), a
// RuntimeProfiler's frame() and results(). Times are the child's CPU time.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchMain } from './ab_rounds.mjs';

// V8's Error.stack text of a capture DEPTH frames deep in one of SHAPES
// call paths through FUNCTIONS functions of two scripts.
function stackTexts(shapes = 64, depth = 24, functions = 120) {
  const texts = [];
  let seed = 1;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
  for (let s = 0; s < shapes; s++) {
    const lines = ['Error'];
    for (let d = 0; d < depth; d++) {
      const f = rand(functions);
      const url = f % 3 ? 'https://example.test/assets/app-3f2a.js' : 'https://example.test/vendor.js';
      lines.push(`    at fn${f}Handler (${url}:${1 + f * 7}:${5 + (f % 40)})`);
    }
    texts.push(lines.join('\n'));
  }
  return texts;
}

async function measure(wasm) {
  globalThis.webprofWasmUrl = pathToFileURL(resolve(wasm)).href;
  const beside = resolve(dirname(resolve(wasm)), '..', 'js');
  const root = existsSync(resolve(beside, 'index.mjs'))
    ? pathToFileURL(beside + '/')
    : new URL('../../js/', import.meta.url);
  const w = await import(new URL('index.mjs', root).href);
  const { samplerSampleOne, boundary } = await import(new URL('core/boundary.mjs', root).href);
  const { configurePageSampler } = await import(new URL('profiler/session.mjs', root).href);
  const { classifyReported } = await import(new URL('profiler/deferred.mjs', root).href);
  await w.ready;
  // CPU time of this process (ms): on a shared machine wall time mostly
  // measures the other processes.
  const now = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const out = {};
  const N = 200000;

  configurePageSampler();
  const texts = stackTexts();
  const ps = new w.TraceSession({ sampleInterval: 1, maxBufferSize: 1e7 });
  const handle = ps.coreHandle();
  const { Ok, UnclassifiedScript } = boundary().status;
  let ts = 1;
  const sample = (text) => {
    let r = samplerSampleOne(handle, text, (ts += 0.25));
    if (r === UnclassifiedScript) {
      classifyReported();
      r = samplerSampleOne(handle, text, (ts += 0.25));
    }
    if (r !== Ok) throw new Error(`sample status ${r}`);
  };
  for (let i = 0; i < 5000; i++) sample(texts[i % texts.length]);
  const S = 40000;
  let t = now();
  for (let i = 0; i < S; i++) sample(texts[i % texts.length]);
  out['polyfill sample from stack text (ns)'] = ((now() - t) * 1e6) / S;
  if (ps.toTrace().frames.length < 100) throw new Error('the stacks were not kept');
  ps.dispose();

  w.start();
  for (let i = 0; i < 10000; i++) w.aggrEnd(w.aggrStart('x'));
  t = now();
  for (let i = 0; i < N; i++) w.aggrEnd(w.aggrStart('x'));
  out['aggrStart/aggrEnd pair (ns)'] = ((now() - t) * 1e6) / N;
  w.end(() => {});
  w.start({ traceLimit: N + 20000 });
  for (let i = 0; i < 10000; i++) w.traceEnd(w.traceStart('t'));
  t = now();
  for (let i = 0; i < N; i++) w.traceEnd(w.traceStart('t'));
  out['traceStart/traceEnd pair (ns)'] = ((now() - t) * 1e6) / N;
  w.end(() => {});

  const s = new w.TraceSession({ sampleInterval: 1, maxBufferSize: 1e7 });
  const r = s.resource('https://example.test/app.js');
  const stacks = [];
  let parent;
  for (let i = 0; i < 200; i++) {
    parent = s.stack(
      s.frame({ name: `f${i}`, resourceId: r, line: i + 1, column: 3 }),
      i % 10 ? parent : undefined,
    );
    stacks.push(parent);
  }
  for (let i = 0; i < 10000; i++) s.sample((ts += 0.25), stacks[(i * 7) % 200]);
  t = now();
  for (let i = 0; i < N; i++) s.sample((ts += 0.25), stacks[(i * 7) % 200]);
  out['TraceSession.sample (ns)'] = ((now() - t) * 1e6) / N;
  s.toTrace();
  t = now();
  for (let k = 0; k < 3; k++) s.toTrace();
  out[`${((N + 10000) / 1000) | 0} k-sample trace -> W3C object (ms)`] = (now() - t) / 3;
  s.dispose();

  // RuntimeProfiler: frame() at depth 20, then results() of a tree through
  // 64 generated functions (the call tree and its JSON).
  const p = new w.RuntimeProfiler();
  p.start(undefined, 1000);
  const depth = (d, fn) => (d === 0 ? fn() : depth(d - 1, fn));
  for (let i = 0; i < 500; i++) depth(20, () => p.frame());
  const F = 4000;
  t = now();
  for (let i = 0; i < F; i++) depth(20, () => p.frame());
  out['RuntimeProfiler frame() at depth 20 (ns)'] = ((now() - t) * 1e6) / F;
  p.stop();
  const fns = [];
  for (let i = 0; i < 64; i++)
    fns.push(new Function('next', 'f', `return function f${i}(k) { f(); return k > 0 ? next(k - 1) : 0; }`));
  const chain = [];
  for (let i = 63; i >= 0; i--)
    chain[i] = fns[i](
      (k) => chain[(i * 7 + k) & 63](k),
      () => p.frame(),
    );
  p.start(undefined, 1000);
  for (let i = 0; i < 3000; i++) chain[(i * 13) & 63](12);
  p.stop();
  p.results();
  t = now();
  for (let k = 0; k < 5; k++) p.results();
  out['RuntimeProfiler results() after 39 k frame() calls (ms)'] = (now() - t) / 5;
  return out;
}

await benchMain(import.meta.url, measure, 'page_core_bench.mjs WASM_A WASM_B [rounds]');
