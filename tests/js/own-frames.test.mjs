// One rule says which URLs are webprof's own (their frames are hidden from
// every trace): both samplers and the native-trace import take it from
// stack_capture.mjs's ownUrlPrefix().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownPrefixOf, ownUrlPrefix } from '../../js/profiler/stack_capture.mjs';
import { ownUrl } from '../../js/profiler/sampler.mjs';

test('the own-URL prefix of each way webprof is loaded', () => {
  const d = 'https://app.test/node_modules/webprof/dist';
  assert.equal(ownPrefixOf('https://app.test/js/profiler/sampler.mjs'), 'https://app.test/js/');
  assert.equal(ownPrefixOf(`${d}/webprof-chunk-AB12CD.mjs`), `${d}/webprof`);
  assert.equal(ownPrefixOf(`${d}/webprof.js?v=3`), `${d}/webprof.js`);
  assert.equal(ownPrefixOf(`${d}/webprof.mjs#x`), `${d}/webprof`);
  assert.equal(ownPrefixOf(`${d}/polyfill.mjs`), `${d}/polyfill.mjs`);
  assert.equal(ownPrefixOf(`${d}/webprof.min.js`), `${d}/webprof.min.js`);
  // Bundled into the page's own script: no prefix, the name marker only.
  assert.equal(ownPrefixOf('https://app.test/assets/index-3f9a.js'), '');
  assert.equal(ownPrefixOf(''), '');
});

test('the polyfill sampler uses the same prefix as RuntimeProfiler', () => {
  assert.ok(ownUrlPrefix().endsWith('/js/'), ownUrlPrefix());
  assert.equal(ownUrl, ownUrlPrefix());
});
