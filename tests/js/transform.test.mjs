// The dense-sampling transform: exact insertion (lines kept, directives
// respected, literals untouched), the esbuild and Rollup/Vite plugins, and a
// transformed long synchronous loop sampled by the polyfill in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { webprofSampling, transformForSampling } from 'webprof/transform/esbuild';
import { webprofSampling as rollupSampling } from 'webprof/transform/rollup';
import { runInNewContext } from 'node:vm';
import { checkSource } from '../support/transform-check.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'webprof.mjs');
const C = 'if(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;';
// The light exit check: no decrement, true only while a tick is pending.
const L = '(__wp$on&&__wp$f&&__wp$f[1]>0&&delete __wp$p.s)';
// An ES module's binding, before its first statement: the runtime's import
// first, then the slots' `var` set from it.
const V = 'import{__wp$f as __wp$m,__wp$p}from"rt";var __wp$f=__wp$m;';

test('checks go after each body `{` and directive; lines never move', async () => {
  const src =
    "function f(a) {\n  'use strict';\n  for (let i = 0; i < a; i++) { g(i); }\n}\n" +
    "const h = () => { return `${'{'}` + /{/.source; }; // function x() {\n";
  const r = await transformForSampling(src, { runtime: 'rt' });
  assert.equal(r.status, 'Ok');
  assert.equal(r.sites, 4);
  assert.equal(r.exits, 2);
  // Exit checks: a body that calls something gets one before its `}`; h
  // calls nothing and holds no loop: no entry check (its samples were the
  // caller's, as its body's time is) and a light exit check, which takes a
  // pending tick only (L). An ES module imports the runtime and sets the
  // slots' `var` before its first statement.
  assert.equal(
    r.code,
    `${V}function f(a) {\n  'use strict';${C}\n  for (let i = 0; i < a; i++) {${C} g(i); }\n;${C}}\n` +
      `const h = () => {var __wp$t; return (__wp$t=(0,\`\${'{'}\` + /{/.source),${L},__wp$t); }; // function x() {\n`,
  );
  const lean = await transformForSampling(src, { runtime: 'rt', exitChecks: false });
  assert.equal(lean.sites, 3);
  assert.equal(lean.exits, 0);
  assert.equal(
    lean.code,
    `${V}function f(a) {\n  'use strict';${C}\n  for (let i = 0; i < a; i++) {${C} g(i); }\n}\n` +
      `const h = () => {${C} return \`\${'{'}\` + /{/.source; }; // function x() {\n`,
  );
  assert.equal(r.code.split('\n').slice(0, 5).length, src.split('\n').slice(0, 5).length);
  const bad = await transformForSampling('function (', { runtime: 'rt' });
  assert.equal(bad.code, 'function (');
  assert.equal(bad.sites, 0);
  assert.equal(bad.status, 'SourceUnscannable');
  assert.equal(bad.map, null);
  assert.match(bad.reason, /could not be scanned/);
});

test('exit checks: a return gives its value after the check, a bare one runs it; no try', async () => {
  // Every return gets one, the first too: it follows only operators since the
  // entry check, but that check's samples are the caller's.
  const src =
    'function f(s) { if (!s) return\n  s = s.trim(); if (!s) return\n  return s + 1 }\nconst k = (x) => x.y();\n';
  const r = await transformForSampling(src, { runtime: null });
  const E = '(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1]&&delete __wp$p.s)';
  assert.equal(
    r.code,
    `function f(s) {${C}var __wp$t; if (!s) return void${E};\n  s = s.trim(); if (!s) return void${E};\n  return (__wp$t=(0,s + 1),${E},__wp$t) }\n` +
      `const k = (x) => {${C}var __wp$t=(0,x.y());${C}return __wp$t};\n`,
  );
  assert.equal(r.sites, 6);
  assert.equal(r.exits, 4);
});

test('light exit checks take a pending tick and nothing else', async () => {
  // isSmall runs no other code: no entry check, a light check at its exit.
  // In counter mode (threshold 0) it never leaves the fast path, however
  // often it runs; with a tick pending (the ticker raised the threshold) the
  // first exit takes it, with isSmall on the stack.
  // The loop is the caller's, in code without checks (so no loop check takes
  // the tick first).
  const src = 'function isSmall(x) { return x < 5 }\nn = count(isSmall);';
  const r = await transformForSampling(src, { runtime: null });
  assert.equal(r.exits, 1);
  const run = (threshold) => {
    const count = (f) => {
      let n = 0;
      for (let i = 0; i < 1000; i++) n += f(i);
      return n;
    };
    const ctx = { n: 0, count, taken: [], __wp$on: 1, __wp$f: new Int32Array([1 << 29, threshold]) };
    ctx.__wp$p = new Proxy(
      {},
      {
        deleteProperty() {
          ctx.taken.push(/at isSmall /.test(new Error().stack));
          ctx.__wp$f[1] = 0; // as __wp$s lowers it
          return true;
        },
      },
    );
    runInNewContext(r.code, ctx);
    return ctx;
  };
  assert.deepEqual(run(0).taken, []);
  const ticked = run((1 << 29) + 1);
  assert.deepEqual(ticked.taken, [true]);
  assert.equal(ticked.n, 5);
});

// Each fixture must parse after the transform to the same program (acorn,
// checks removed) and, run in a fresh context, give the same `result`;
// `loops` fixtures must also reach a check inside the loop.
const FIXTURES = [
  // The temp never names what it holds: `__wp$t=(function(){})` would (the
  // spec's NamedEvaluation sees through parentheses).
  [
    'anonymous functions and classes returned keep no name',
    'function g() {}\nfunction mk() { g(); return function () { g(); }; }\n' +
      'const arrow = () => () => g();\nfunction cls() { g(); return class { m() { g(); } }; }\n' +
      'function seq() { g(); return g(), function () {}; }\n' +
      'result = [mk().name, arrow().name, cls().name, seq().name];',
  ],
  // Issue 13's breakages: expression bodies ending in `}`.
  ['arrow || object', 'const f = (x) => x || { value: x }; result = f(0).value;'],
  [
    'arrow returning a class',
    'const m = (a) => class extends a { g() { return 2; } };\nresult = new (m(Object))().g();',
  ],
  ['&& object (Chart.js)', 'const k = (o) => o&&{keys:Object.keys(o)}; result = k({a:1}).keys;'],
  [
    'objects after ? ( return =>',
    'function f(c) { return c ? {a:1} : ({b:2}); }\nconst g = () => ({c:3});\nresult = [f(1), f(0), g()];',
  ],
  [
    'arrow expression bodies',
    'const a = x => x * 2, b = async x => x, c = (x, y) => [x, y];\nresult = [a(2), c(1, 2)];',
  ],
  // Unbraced bodies: loops get a check, `if` bodies stay as they are.
  ['unbraced for', 'let s = 0;\nfor (let i = 0; i < 5; i++) s += i;\nresult = s;', true],
  [
    'unbraced while / do',
    'let x = 0, y = 0;\nwhile (x < 5) x++\ndo y++; while (y < 3)\nresult = [x, y];',
    true,
  ],
  [
    'if / else with a loop',
    'let s = 0;\nif (s === 0) for (let i = 0; i < 3; i++) s += i; else s = -1;\nresult = s;',
    true,
  ],
  ['if without braces', 'let a = 1;\nif (a) a = 2\nelse a = 3\nresult = a;'],
  [
    'loop body ends by ASI before (',
    'let n = 0, f = (v) => v;\nfor (let i = 0; i < 2; i++) n = f\n(i)\nresult = n;',
    true,
  ],
  [
    'labels',
    'let c = 0;\nouter: for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) { if (j === 1) continue outer; c++; }\nresult = c;',
    true,
  ],
  [
    'for in / of / empty body',
    'const o = {a:1,b:2}; let k = [];\nfor (const p in o) k.push(p);\nfor (const v of [3]) k.push(v);\nlet i = 0; while (i++ < 3);\nresult = [k, i];',
    true,
  ],
  // Exit checks (at each return and the body's end): every way out keeps its value.
  [
    'exit checks: return, throw, end of body, super, generators',
    'function f(x) { if (x) return {v: x}; try { throw 1 } catch (e) { return e } }\n' +
      'function g() { throw new Error("e") }\nlet caught; try { g() } catch (e) { caught = e.message }\n' +
      'class B { constructor() { this.b = 1 } }\nclass D extends B { constructor() { super(); this.d = 2 } }\n' +
      'function* gen() { yield 1; return 2 }\nconst it = gen(); it.next();\n' +
      'result = [f(0), f(3), caught, new D(), [...gen()], it.return(5), (() => { x = 1\n})()]; var x',
    true,
  ],
  [
    'arrow expression bodies become blocks with both checks',
    'const a = [1, 2].map(x => x * 2), b = (c) => c ? {c} : [c], n = v =>\n  v\n(1)\n' +
      'const k = async v => await v, m = a => b => a + b, o = { f: x => x, g: 1 };\n' +
      'class C { f = () => this.v; v = 3 }\nresult = [a, b(0), b(1), m(1)(2), o.f(4), new C().f(), n(() => 5)];',
    true,
  ],
  [
    'bodies declaring functions',
    'function f() { var g; function g() { return 1 } return g() }\n' +
      'function h() { function k() { return 1 } function k() { return 2 } return k() }\n' +
      'function s() { "use strict"; if (1) { function a() {} } return typeof a }\nresult = [f(), h(), s()];',
  ],
  [
    'returns with exit checks: comma, ASI, finally, derived constructors, labels, members named return',
    'function g() { n++ } var n = 0;\nfunction a(x) { g(); return x, x + 1 }\nfunction b(x) { g(); if (x) return\n(x) }\n' +
      'function c() { g(); try { return n } finally { g() } }\nfunction d() { g(); try { return 1 } finally { return 2 } }\n' +
      'class P { constructor() { this.p = 1 } }\nclass Q extends P { constructor() { super(); g(); return } }\n' +
      'function e() { g(); l: { if (1) break l; return 3 } return 4 }\n' +
      'const o = { return() { g(); return 5 } }, p = { get return() { g(); return 1 } };\n' +
      'class R { return = 6; static return() { g(); return 7 } }\n' +
      'function* gen() { g(); const y = yield 1; return y * 2 }\nconst it = gen(); it.next();\n' +
      'function s() { "use strict"; g(); if (n > 100) return; return this }\n' +
      'function f2() { g(); return function () { g(); return 8 }() }\n' +
      'result = [a(1), b(1), c(), d(), new Q().p, e(), o.return(), p.return, new R().return, R.return(), it.next(5), s(), f2(), n];',
  ],
  // Classes, generators, async, accessors, switch, with.
  [
    'class fields, #private, static blocks',
    'class A { #p = 1; static s; static { A.s = 2; } get p() { return this.#p; } set p(v) { this.#p = v; } #m() { return 3; } m() { return this.#m(); } }\nconst a = new A(); a.p = 5;\nresult = [a.p, A.s, a.m()];',
  ],
  [
    'generators and async',
    'function* g() { yield {a:1}; yield* [2]; }\nconst h = async () => { await null; return 1; };\nasync function* ag() { yield 1; }\nresult = [...g()];',
  ],
  [
    'object getters / setters / methods',
    'const o = { v: 1, get x() { return this.v; }, set x(n) { this.v = n; }, m() { return 2; }, async n() {}, *q() {} };\no.x = 4;\nresult = [o.x, o.m()];',
  ],
  [
    'switch',
    'function f(v) { switch (v) { case 1: { return {a: 1}; } default: for (;;) break; return 0; } }\nresult = [f(1), f(2)];',
    true,
  ],
  ['with', 'const o = {a: 1}; let r;\nwith (o) r = a;\nwhile (r < 3) with (o) r += a;\nresult = r;', true],
  // Directives, hashbang, HTML comments, regexes, templates.
  [
    'directives stay first',
    'function f() {\n  "use strict"\n  return this; }\nfunction g() { "use strict"; return this; }\nresult = [f(), g()];',
  ],
  ['hashbang', '#!/usr/bin/env node\nfunction f() { return 1; }\nresult = f();'],
  [
    'HTML comments (classic script)',
    '<!-- function x( {\nfunction f() { return 1; }\n--> } (\nresult = f();',
  ],
  [
    'regex vs division',
    'let a = 4, b = 2, g = 1;\nconst r = a / b / g, t = /[/{(]/.test("{");\nif (a) /}/.test("}") && (a = 8)\nresult = [r, t, a];',
  ],
  [
    'template literals with braces',
    'const v = 1, f = () => `a${ {x: v}.x }b${ `c${ (() => { return "}"; })() }` }`;\nresult = f();',
  ],
  [
    'eval and new Function',
    'const e = eval("(function () { let s = 0; for (let i = 0; i < 3; i++) s += i; return s; })()");\nconst n = new Function("a", "return { a };")(2);\nresult = [e, n];',
  ],
];

for (const [name, code, loops] of FIXTURES) {
  test(`fixture: ${name}`, async () => {
    const r = await checkSource(transformForSampling, code);
    assert.ok(r.parses, 'the fixture itself parses');
    assert.equal(r.status, 'Ok');
    assert.ok(r.ok, `${r.why}\n${r.code}`);
    const run = (src) => {
      const ctx = { result: undefined, samples: 0, __wp$on: 1, __wp$f: new Int32Array([1, 0]) };
      ctx.__wp$p = new Proxy(
        {},
        {
          deleteProperty() {
            ctx.samples++;
            ctx.__wp$f[0] = 1;
            return true;
          },
        },
      );
      runInNewContext(src, ctx);
      return ctx;
    };
    const before = run(code);
    const after = run(r.code);
    assert.deepEqual(JSON.stringify(after.result), JSON.stringify(before.result));
    assert.ok(!('__wp$t' in after), "the exit checks' temp stays local");
    if (loops) assert.ok(after.samples > 0, 'a check ran inside the loop');
  });
}

// Source map v3 decoding, enough to check the transform's map.
function decodeMappings(mappings) {
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const lines = [];
  let srcLine = 0;
  let srcCol = 0;
  for (const text of mappings.split(';')) {
    const segs = [];
    let gen = 0;
    for (const seg of text ? text.split(',') : []) {
      const v = [];
      let shift = 0;
      let acc = 0;
      for (const ch of seg) {
        const d = B64.indexOf(ch);
        acc += (d & 31) << shift;
        if (d & 32) shift += 5;
        else {
          v.push(acc & 1 ? -(acc >>> 1) : acc >>> 1);
          acc = 0;
          shift = 0;
        }
      }
      gen += v[0];
      srcLine += v[2];
      srcCol += v[3];
      segs.push([gen, srcLine, srcCol]);
    }
    lines.push(segs);
  }
  return lines;
}
function original(map, line, col) {
  const segs = decodeMappings(map.mappings)[line];
  let best = null;
  for (const s of segs) if (s[0] <= col) best = s;
  return best && [best[1], best[2] + (col - best[0])];
}

test('the source map takes every original token back to its place', async () => {
  const src = 'const s = "\u00e9\u{1F600}";\nfunction f(a) { for (;;) { g(a); } }\nh();\n';
  const input = eval(`\`${src}\``);
  const r = await transformForSampling(input, { runtime: 'rt', file: 'a.js' });
  assert.equal(r.map.sources[0], 'a.js');
  const outLines = r.code.split('\n');
  assert.equal(outLines[0].slice(0, V.length), V);
  assert.equal(outLines[1], `function f(a) {${C} for (;;) {${C} g(a); } ;${C}}`); // after non-ASCII text
  const inLines = input.split('\n');
  for (const [token, line] of [
    ['g(a)', 1],
    ['for', 1],
    ['h()', 2],
    ['function', 1],
  ]) {
    const col = outLines[line].indexOf(token);
    assert.deepEqual(original(r.map, line, col), [line, inLines[line].indexOf(token)], token);
  }
});

// A project with TypeScript, JSX, a CommonJS dependency in node_modules and
// a file the scanner cannot read (nesting past its depth limit, valid JS).
function project() {
  const dir = mkdtempSync(join(tmpdir(), 'wp-plugins-'));
  const files = {
    'rt.mjs':
      'globalThis.__wp$on = 1;\nexport const __wp$f = new Int32Array([0, 0]);\n' +
      'export const __wp$p = new Proxy({}, { deleteProperty() { globalThis.__wpCalls = (globalThis.__wpCalls || 0) + 1; __wp$f[0] = 0; return true; } });\n',
    'sum.ts':
      'export function sum(n: number): number {\n  let s = 0;\n  for (let i = 0; i < n; i++) s += i;\n  return s;\n}\n',
    'h.js': 'export const h = (t, p, ...c) => ({ t, p, c });\n',
    'view.jsx': "import { h } from './h.js';\nexport function view(x) {\n  return <b id={x}>{x}</b>;\n}\n",
    'node_modules/dep/index.js':
      "'use strict';\nexports.loop = function (n) { var s = 0; for (var i = 0; i < n; i++) s += i; return s; };\n",
    'node_modules/esm-dep/index.js':
      'export function loop(n) { var s = 0; for (var i = 0; i < n; i++) s += i; return s; }\n',
    'rollup-main.js':
      "import { sum } from './sum.ts';\nimport { view } from './view.jsx';\nimport { loop } from './node_modules/esm-dep/index.js';\n" +
      "import { deep } from './deep.js';\nexport const out = [sum(10), view(1), loop(10), deep.length];\n",
    'deep.js': `export const deep = ${'['.repeat(1100)}1${']'.repeat(1100)};\n`,
    'main.js':
      "import { sum } from './sum.ts';\nimport { view } from './view.jsx';\nimport dep from './node_modules/dep/index.js';\n" +
      "import { deep } from './deep.js';\nexport const out = [sum(10), view(1), dep.loop(10), deep.length];\n",
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

test('esbuild plugin: TypeScript and JSX compiled then sampled, dependencies sampled, unreadable files reported once', async () => {
  const dir = project();
  try {
    const result = await esbuild.build({
      entryPoints: [join(dir, 'main.js')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: join(dir, 'out.mjs'),
      jsxFactory: 'h',
      logLevel: 'silent',
      plugins: [webprofSampling({ runtime: join(dir, 'rt.mjs') })],
    });
    const warned = result.warnings.map((w) => w.text);
    assert.equal(warned.length, 1, warned.join('\n'));
    assert.match(warned[0], /deep\.js left unsampled: .*could not be scanned.* \(SourceUnscannable\)/);
    globalThis.__wpCalls = 0;
    const { out } = await import(pathToFileURL(join(dir, 'out.mjs')).href);
    assert.deepEqual(out, [45, { t: 'b', p: { id: 1 }, c: [1] }, 45, 1]);
    // Every check calls this runtime: sum and dep.loop, entry + 10
    // iterations each; view, entry and exit (it calls h; sum, dep.loop and
    // h's expression body call nothing: no exit check).
    assert.equal(globalThis.__wpCalls, 24);
  } finally {
    delete globalThis.__wpCalls;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Rollup/Vite plugin: runs after other transforms, samples dependencies unless excluded, reports once', async () => {
  const { rollup } = await import('rollup');
  const dir = project();
  // Stands in for a TypeScript plugin listed after webprof's: `order: 'post'`
  // still sees its output (a check in `sum`'s body, which the TypeScript
  // return type would have hidden).
  const fakeTs = {
    name: 'fake-ts',
    transform: (code, id) => (id.endsWith('.ts') ? code.replace(/: number/g, '') : null),
  };
  const bundle = async (opts) => {
    const warnings = [];
    const b = await rollup({
      input: join(dir, 'rollup-main.js'),
      external: [/rt\.mjs$/],
      plugins: [rollupSampling({ runtime: join(dir, 'rt.mjs'), ...opts }), fakeTs, jsxToH],
      onwarn: (w) => warnings.push(w.message),
    });
    const { output } = await b.generate({ format: 'esm' });
    await b.close();
    return { code: output[0].code, warnings };
  };
  try {
    const all = await bundle({});
    // Each module's slots are its own `var`: Rollup renames them (`__wp$f$2`).
    const check = C.replace(/[()[\]$]/g, '\\$&').replaceAll('__wp\\$f', '__wp\\$f[\\d$]*');
    assert.match(all.code, new RegExp(`function sum\\(n\\) \\{${check}`));
    assert.match(all.code, /for \(var i = 0; i < n; i\+\+\) \{if/, 'the dependency loop is sampled');
    const ours = all.warnings.filter((w) => w.includes('webprof:'));
    assert.equal(ours.length, 1, ours.join('\n'));
    assert.ok(
      ours[0].endsWith(
        `webprof: ${join(dir, 'deep.js')} left unsampled: the script could not be scanned ` +
          '(malformed or unsupported syntax) (SourceUnscannable)',
      ),
      ours[0],
    );
    const noDeps = await bundle({ exclude: /node_modules/ });
    assert.match(noDeps.code, /for \(var i = 0; i < n; i\+\+\) s \+= i/, 'excluded: left as written');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Minimal JSX for Rollup (which has no JSX parser): `<b id={x}>{x}</b>`.
const jsxToH = {
  name: 'jsx-to-h',
  transform: (code, id) =>
    id.endsWith('.jsx') ? code.replace('<b id={x}>{x}</b>', "h('b', { id: x }, x)") : null,
};

test('an esbuild bundle built with the plugin is sampled inside a long loop', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wp-transform-'));
  try {
    writeFileSync(
      join(dir, 'work.mjs'),
      'export function denseLoop(ms) {\n' +
        '  const end = performance.now() + ms;\n' +
        '  let x = 0;\n' +
        '  while (performance.now() < end) { x++; }\n' +
        '  return x;\n' +
        '}\n',
    );
    const out = join(dir, 'out.mjs');
    await esbuild.build({
      entryPoints: [join(dir, 'work.mjs')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: out,
      external: [dist],
      logLevel: 'silent',
      plugins: [webprofSampling({ runtime: dist })],
    });
    const webprof = await import(pathToFileURL(dist).href);
    await webprof.ready;
    const { denseLoop } = await import(pathToFileURL(out).href);
    const p = new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 10000, backend: 'polyfill' });
    denseLoop(60); // one synchronous task: only the inserted checks can sample it
    const trace = await p.stop();
    const inLoop = trace.samples.filter((s) => {
      for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
        if (trace.frames[trace.stacks[id].frameId].name === 'denseLoop') return true;
      return false;
    });
    console.log(`# samples inside the 60 ms loop at 1 ms: ${inLoop.length}`);
    // Without the inserted checks one synchronous task gets at most its entry
    // and exit probes. With them: one sample per ms the thread runs (on an
    // idle machine ~55 of 60; a loaded one runs this thread far less).
    assert.ok(inLoop.length >= 5, `only ${inLoop.length} samples inside the loop`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A linked or workspace copy of webprof (`npm link`, a folder not named
// webprof): the plugins find its files beside the resolved runtime, not by
// path; transformed, its chunk would call the checks before they exist.
test('esbuild and Rollup plugins leave a copy of webprof in a folder not named webprof alone', async () => {
  const { rollup } = await import('rollup');
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const dir = mkdtempSync(join(tmpdir(), 'webprof-linked-'));
  try {
    const pkg = join(dir, 'profiler-pkg');
    mkdirSync(pkg);
    cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
    cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
    const app = join(dir, 'app');
    mkdirSync(join(app, 'node_modules'), { recursive: true });
    symlinkSync(pkg, join(app, 'node_modules', 'webprof'), 'dir');
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
    writeFileSync(
      join(app, 'main.js'),
      "import { Profiler } from 'webprof';\n" +
        'export function work(n) { let s = 0; for (let i = 0; i < n; i++) { s += i; } return s; }\n' +
        'export const out = [typeof Profiler, work(10)];\n',
    );
    await esbuild.build({
      entryPoints: [join(app, 'main.js')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: join(app, 'out', 'esbuild.mjs'),
      absWorkingDir: app,
      logLevel: 'silent',
      plugins: [webprofSampling()],
    });
    const bundle = await rollup({
      input: join(app, 'main.js'),
      plugins: [
        {
          name: 'resolve-webprof',
          resolveId: (s) => (s === 'webprof' ? join(pkg, 'dist', 'webprof.mjs') : null),
        },
        rollupSampling(),
      ],
      onwarn: () => {},
    });
    await bundle.write({ file: join(app, 'out', 'rollup.mjs'), format: 'esm', inlineDynamicImports: true });
    cpSync(join(root, 'dist', 'webprof-core.wasm'), join(app, 'out', 'webprof-core.wasm'));
    for (const file of ['esbuild.mjs', 'rollup.mjs']) {
      const { out } = await import(pathToFileURL(join(app, 'out', file)).href);
      assert.deepEqual(out, ['function', 45], file);
      // The app's own function is sampled: its checks are in the bundle.
      const text = readFileSync(join(app, 'out', file), 'utf8');
      const work = text.slice(text.indexOf('function work('));
      assert.match(work.slice(0, work.indexOf('return s')), /--\s*[\w$]+\[0\]\s*<\s*[\w$]+\[1\]\)/, file);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// An import cycle: b.mjs runs first and calls a.mjs's `hot` before a.mjs's
// body has run, with a session on. The checks' `var` is then unset and they
// skip (a `const` or `let` there was a TDZ error thrown into the page); once
// a.mjs's body has run they take their slow path.
test('a check that runs before its module body (an import cycle) skips, never throws', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wp-cycle-'));
  try {
    writeFileSync(
      join(dir, 'rt.mjs'),
      'globalThis.__wp$on = 1;\nexport const __wp$f = new Int32Array([0, 0]);\n' +
        'export const __wp$p = new Proxy({}, { deleteProperty() { globalThis.__wpCycle++; return true; } });\n',
    );
    const files = {
      'a.mjs':
        "import { early } from './b.mjs';\nexport function hot(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }\nexport const late = hot(3);\nexport { early };\n",
      'b.mjs': "import { hot } from './a.mjs';\nexport const early = hot(4);\n",
    };
    for (const [name, code] of Object.entries(files)) {
      const r = await transformForSampling(code, { runtime: './rt.mjs' });
      assert.equal(r.status, 'Ok');
      writeFileSync(join(dir, name), r.code);
    }
    globalThis.__wpCycle = 0;
    const a = await import(pathToFileURL(join(dir, 'a.mjs')).href);
    assert.deepEqual([a.early, a.late], [6, 3]);
    // hot(4) before a.mjs's body: no check ran; hot(3) after it: entry and
    // three iterations (the counter at 0 takes the slow path every time).
    assert.equal(globalThis.__wpCycle, 4);
  } finally {
    delete globalThis.__wpCycle;
    delete globalThis.__wp$on;
    rmSync(dir, { recursive: true, force: true });
  }
});
