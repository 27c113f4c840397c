// The dense-sampling transform: exact insertion (lines kept, directives
// respected, literals untouched), the esbuild and Rollup/Vite plugins, and a
// transformed long synchronous loop sampled by the polyfill in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { webprofSampling, transformForSampling } from 'webprof/transform/esbuild';
import { webprofSampling as rollupSampling } from 'webprof/transform/rollup';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'webprof.mjs');
const C = 'if(--__wp$f[0]<0)__wp$s();';

test('checks go after each body `{` and directive; lines never move', async () => {
  const src =
    "function f(a) {\n  'use strict';\n  for (let i = 0; i < a; i++) { g(i); }\n}\n" +
    "const h = () => { return `${'{'}` + /{/.source; }; // function x() {\n";
  const r = await transformForSampling(src, { runtime: 'rt' });
  assert.equal(r.status, 'Ok');
  assert.equal(r.sites, 3);
  assert.equal(
    r.code,
    `function f(a) {\n  'use strict';${C}\n  for (let i = 0; i < a; i++) {${C} g(i); }\n}\n` +
      `const h = () => {${C} return \`\${'{'}\` + /{/.source; }; // function x() {\n` +
      `\nimport { __wp$f, __wp$s } from "rt";\n`,
  );
  assert.equal(r.code.split('\n').slice(0, 5).length, src.split('\n').slice(0, 5).length);
  const bad = await transformForSampling('function (', { runtime: 'rt' });
  assert.deepEqual(bad, { code: 'function (', sites: 0, status: 'SourceUnscannable', map: null });
});

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
  assert.equal(outLines[1], `function f(a) {${C} for (;;) {${C} g(a); } }`); // after non-ASCII text
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

test('Rollup/Vite plugin transforms app modules and skips dependencies', async () => {
  const p = rollupSampling({ runtime: 'rt' });
  const out = await p.transform.call({ warn() {} }, 'function a() { b(); }', '/app/src/a.js');
  assert.ok(out.code.startsWith(`function a() {${C} b(); }`));
  assert.equal(await p.transform.call({ warn() {} }, 'function a() {}', '/app/node_modules/x/a.js'), null);
  const warnings = [];
  assert.equal(await p.transform.call({ warn: (w) => warnings.push(w) }, 'function (', '/app/b.js'), null);
  assert.equal(warnings.length, 1);
});

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
