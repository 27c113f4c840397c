// The transform corpus property on a deterministic sample of the project's
// own node_modules (every 16th .js/.mjs/.cjs file; `npm run bench` runs the
// full corpus, tests/bench/transform_corpus_bench.mjs): whatever acorn
// parses still parses, to the same program, after the transform. And real
// libraries behave the same transformed: acorn itself, transformed, parses
// a file to the same tree as the original acorn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as acorn from 'acorn';
import { transformForSampling } from 'webprof/transform/esbuild';
import { checkCorpus, listSources } from '../support/transform-check.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('every sampled node_modules file that parses still parses to the same program', async () => {
  const files = listSources(join(root, 'node_modules'));
  assert.ok(files.length > 1000, `only ${files.length} files found`);
  const s = await checkCorpus(transformForSampling, files, 16);
  console.log(
    `# corpus sample: ${s.tried} files tried, ${s.parse} parse, ${s.failures.length} failures, ` +
      `${s.unscannable.length} left unsampled, ${(s.bytes / 1e6 / (s.transformMs / 1000)).toFixed(1)} MB/s`,
  );
  assert.ok(s.parse > 100);
  assert.deepEqual(s.failures, []);
});

test('a transformed library behaves the same: acorn parses itself to the same tree', async () => {
  const src = readFileSync(join(root, 'node_modules', 'acorn', 'dist', 'acorn.mjs'), 'utf8');
  const r = await transformForSampling(src, { runtime: null, file: 'acorn.mjs' });
  assert.equal(r.status, 'Ok');
  assert.ok(r.sites > 300 && r.wrapped > 0, `${r.sites} checks, ${r.wrapped} wrapped loop bodies`);
  const dir = mkdtempSync(join(tmpdir(), 'wp-corpus-'));
  let samples = 0;
  globalThis.__wp$on = 1;
  globalThis.__wp$f = new Int32Array([64, 0]); // the counter, its threshold
  globalThis.__wp$p = new Proxy(
    {},
    {
      deleteProperty() {
        samples++;
        globalThis.__wp$f[0] = 64;
        return true;
      },
    },
  );
  try {
    writeFileSync(join(dir, 'acorn.mjs'), r.code);
    const transformed = await import(pathToFileURL(join(dir, 'acorn.mjs')).href);
    assert.deepEqual(Object.keys(transformed).sort(), Object.keys(acorn).sort());
    const opts = { ecmaVersion: 'latest', sourceType: 'module' };
    const before = JSON.stringify(acorn.parse(src, opts));
    const after = JSON.stringify(transformed.parse(src, opts));
    assert.equal(after, before);
    assert.ok(samples > 100, `only ${samples} checks reached their due count`);
  } finally {
    delete globalThis.__wp$on;
    delete globalThis.__wp$f;
    delete globalThis.__wp$p;
    rmSync(dir, { recursive: true, force: true });
  }
});
