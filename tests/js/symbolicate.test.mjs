// symbolicate(trace, maps) in Node, on traces V8 sampled from minified
// bundles that real tools built in this test's setup (esbuild, terser,
// TypeScript, webpack): every sampled frame of a bundle maps to the right
// original function name, file and definition line; a malformed map fails
// for its script only.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { minify } from 'terser';
import ts from 'typescript';
import webpack from 'webpack';
import { ready, symbolicate, toCpuProfile, loadExporters } from 'webprof';
import {
  writeSources,
  cpuProfileToTrace,
  definesAt,
  fileUrl,
  ORIGINAL,
  TEXT_JS,
  MAIN_JS,
} from '../support/minified-workload.mjs';

const dir = mkdtempSync(join(tmpdir(), 'webprof-maps-'));
const src = (f) => join(dir, 'src', f);

const builders = {
  async esbuild() {
    await esbuild.build({
      entryPoints: [src('entry.js')],
      bundle: true,
      minify: true,
      sourcemap: true,
      format: 'iife',
      platform: 'node',
      outfile: join(dir, 'esbuild', 'app.js'),
      logLevel: 'silent',
    });
    return join(dir, 'esbuild', 'app.js');
  },
  async terser() {
    // One classic script of both files (terser does not bundle), mangled.
    const code = (TEXT_JS + MAIN_JS)
      .replace(/^import .*$/m, '')
      .replace(/^export /gm, '')
      .concat('runWorkload(Number(process.argv[2]));\n');
    mkdirSync(join(dir, 'terser'), { recursive: true });
    writeFileSync(src('app.src.js'), code);
    const out = await minify(
      { '../src/app.src.js': code },
      { toplevel: true, sourceMap: { url: 'app.js.map', includeSources: true } },
    );
    writeFileSync(join(dir, 'terser', 'app.js'), out.code);
    writeFileSync(join(dir, 'terser', 'app.js.map'), out.map);
    return join(dir, 'terser', 'app.js');
  },
  async typescript() {
    // Typed sources: annotations move every column the map must undo.
    mkdirSync(join(dir, 'ts'), { recursive: true });
    for (const [name, text] of [
      ['text', TEXT_JS],
      ['main', MAIN_JS],
      ['entry', readFileSync(src('entry.js'), 'utf8')],
    ]) {
      const typed = text.replace(/\(src, ms\)( \{| =>)/g, '(src: string, ms: number)$1');
      writeFileSync(src(`${name}.ts`), typed);
      const r = ts.transpileModule(typed, {
        fileName: `${name}.ts`,
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2020,
          sourceMap: true,
          inlineSources: true,
          sourceRoot: '../src/',
        },
      });
      writeFileSync(join(dir, 'ts', `${name}.js`), r.outputText);
      writeFileSync(join(dir, 'ts', `${name}.js.map`), r.sourceMapText);
    }
    return join(dir, 'ts', 'entry.js');
  },
  async webpack() {
    await new Promise((resolve, reject) =>
      webpack(
        {
          mode: 'production',
          devtool: 'source-map',
          target: 'node',
          context: dir,
          entry: src('entry.js'),
          output: { path: join(dir, 'webpack'), filename: 'app.js' },
          infrastructureLogging: { level: 'error' },
        },
        (err, stats) => (err || stats.hasErrors() ? reject(err || new Error(stats.toString())) : resolve()),
      ),
    );
    return join(dir, 'webpack', 'app.js');
  },
};

before(async () => {
  writeSources(dir);
  await ready;
  await loadExporters(); // exports without a Profiler's stop()
});

// V8's own sampler on the bundle (Node's --cpu-prof), as a W3C trace, and
// the maps next to each generated file.
function profile(entry) {
  const out = join(dirname(entry), 'prof');
  const r = spawnSync(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${out}`, '--cpu-prof-interval=200', entry, '400'],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  const file = readdirSync(out).find((f) => f.endsWith('.cpuprofile'));
  const trace = cpuProfileToTrace(JSON.parse(readFileSync(join(out, file), 'utf8')));
  const maps = {};
  for (const url of trace.resources) {
    const path = url.startsWith('file:') ? fileURLToPath(url) : null;
    if (path && existsSync(`${path}.map`)) maps[url] = readFileSync(`${path}.map`, 'utf8');
  }
  return { trace, maps };
}

function originalText(url) {
  const m = /(src\/[\w.]+)$/.exec(url);
  return m ? readFileSync(join(dir, m[1].replace(/\.ts$/, '.ts')), 'utf8') : null;
}

for (const tool of Object.keys(builders)) {
  test(`${tool}: every sampled frame of the bundle maps to its original function and line`, async () => {
    const entry = await builders[tool]();
    const { trace, maps } = profile(entry);
    assert.ok(Object.keys(maps).length > 0, 'the build wrote maps');
    const out = await symbolicate(trace, maps);
    assert.deepEqual(out.symbolication.errors, []);
    assert.ok(out.symbolication.mapped > 0);

    const sampled = new Set();
    for (const s of trace.samples)
      for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
        sampled.add(trace.stacks[id].frameId);
    const bundles = new Set(Object.keys(maps).map((u) => trace.resources.indexOf(u)));
    const seen = new Set();
    let renamed = 0;
    for (const i of sampled) {
      const before = trace.frames[i];
      if (!bundles.has(before.resourceId) || before.name === '') continue; // top-level code
      const f = out.frames[i];
      assert.ok(f.generated, `${tool}: ${before.name}@${before.line}:${before.column} was not mapped`);
      assert.deepEqual(f.generated, before);
      const url = out.resources[f.resourceId];
      const text = originalText(url);
      if (!text) continue; // the bundler's own runtime (webpack/bootstrap)
      assert.ok(f.name in ORIGINAL, `${tool}: ${before.name} -> "${f.name}" (${url}:${f.line})`);
      assert.ok(
        url.endsWith(ORIGINAL[f.name].file.replace('.js', tool === 'typescript' ? '.ts' : '.js')) ||
          tool === 'terser',
        url,
      );
      assert.ok(definesAt(text, f.line, f.name), `${tool}: ${f.name} at ${url}:${f.line}`);
      if (f.name !== before.name) renamed++;
      seen.add(f.name);
    }
    // terser and webpack (terser inside) may inline the single-use helpers.
    const hot =
      tool === 'terser' || tool === 'webpack' ? ['render'] : ['parseInline', 'tokenizeBlock', 'render'];
    for (const name of hot) assert.ok(seen.has(name), `${tool}: ${name} sampled (${[...seen]})`);
    if (tool === 'esbuild') assert.ok(renamed > 0, 'sampled functions were renamed');
    if (tool !== 'typescript')
      assert.doesNotMatch(readFileSync(entry, 'utf8'), /function parseInline/, 'minified');
    // The exports show the original names.
    const cpu = JSON.parse(Buffer.from(toCpuProfile({ profile: out })).toString());
    assert.ok(
      cpu.nodes.some((n) => n.callFrame.functionName === 'parseInline' && /src\//.test(n.callFrame.url)),
    );
  });
}

test('an index map (sections) of a real map, and a malformed map that fails alone', async () => {
  const entry = await builders.esbuild();
  const { trace, maps } = profile(entry);
  const [url] = Object.keys(maps);
  const index = { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: JSON.parse(maps[url]) }] };
  const viaIndex = await symbolicate(trace, { [url]: index }, { mapUrls: { [url]: `${url}.map` } });
  const direct = await symbolicate(trace, maps);
  assert.deepEqual(viaIndex.frames, direct.frames);

  const bad = { ...trace, resources: [...trace.resources, 'https://x.test/other.js'] };
  bad.frames = [...trace.frames, { name: 'Oe', resourceId: bad.resources.length - 1, line: 1, column: 20 }];
  const r = await symbolicate(bad, {
    [url]: maps[url],
    'https://x.test/other.js': '{"version":3,"sources":["a"],"mappings":"AA!A"}',
  });
  assert.equal(r.symbolication.errors.length, 1);
  assert.equal(r.symbolication.errors[0].resource, 'https://x.test/other.js');
  assert.match(r.symbolication.errors[0].message, /other\.js.*invalid base64 character at offset 2/);
  assert.deepEqual(r.frames.at(-1), bad.frames.at(-1));
  const named = (t) => t.frames.map((f) => [f.name, t.resources[f.resourceId], f.line, f.column]);
  assert.deepEqual(named(r).slice(0, -1), named(direct));
  await assert.rejects(() => symbolicate(null, {}), TypeError);
  const notJson = await symbolicate(bad, { 'https://x.test/other.js': 42 });
  assert.match(notJson.symbolication.errors[0].message, /must be JSON text/);
});
