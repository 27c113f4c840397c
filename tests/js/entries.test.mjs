// The entry points: js/index.mjs forwards exactly js/api.mjs's names (it
// lists them to take them from whichever webprof copy serves the page), and
// webprof/perf's names are a subset of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from '../../js/api.mjs';
import * as index from '../../js/index.mjs';
import * as perf from '../../js/perf.mjs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('js/index.mjs exports exactly the names of js/api.mjs, from the same copy', () => {
  assert.deepEqual(Object.keys(index).sort(), Object.keys(api).sort());
  for (const name of Object.keys(api)) assert.equal(index[name], api[name], name);
});

test('webprof/perf exports a subset of the API, the same functions', () => {
  for (const name of Object.keys(perf)) assert.equal(perf[name], api[name], name);
});

test('the Node-side tools keep their own core beside a published page API', () => {
  // In a fresh process (this one already has a page API from js/):
  // dist/webprof.mjs publishes its API on globalThis; the build-time
  // transform, another copy of the core, must still load its own.
  const dist = (f) => JSON.stringify(fileURLToPath(new URL(`../../dist/${f}`, import.meta.url)));
  const code = `import * as page from ${dist('webprof.mjs')};
await page.ready;
const { transformForSampling } = await import(${dist('transform-esbuild.mjs')});
const r = await transformForSampling('function f() { return 1; }\\n', { runtime: null });
console.log(r.status);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(out.trim(), 'Ok');
});
