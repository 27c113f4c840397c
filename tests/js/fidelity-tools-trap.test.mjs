// The index of source scans lives in the tools module (webprof-tools.wasm):
// a trap there drops that module and its scans, and the next
// resolveFrameDefinitions() reads the sources again into the fresh module's
// index instead of trusting a cache whose scans are gone. js/ loaded with the
// page's build (the tools module a module of its own, as on a page); its own
// process, as the trap is the process's.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.webprofWasmUrl = new URL('../../dist/webprof-core.wasm', import.meta.url).href;
const { ready, TraceSession, resolveFrameDefinitions } = await import('../../js/index.mjs');
const { withTools, toolsSeparate } = await import('../../js/core/tools.mjs');
await ready;

const APP = 'https://app.test/app.js';
const SOURCE = 'function work(n) {\n  step(n);\n}\nfunction step(k) {\n  return k;\n}\n';

// Resolves one trace (work at line 2 -> step at line 5) with a fetch that
// logs; its frames after the rewrite.
async function resolveOnce(log) {
  const t = new TraceSession({ maxBufferSize: 10 });
  try {
    const app = t.resource(APP);
    const work = t.frame({ name: 'work', resourceId: app, line: 2, column: 3 });
    const step = t.frame({ name: 'step', resourceId: app, line: 5, column: 3 });
    t.sample(1, t.stack(step, t.stack(work)));
    t.stop();
    const fetch = async (url) => {
      log.push(url);
      return new Response(SOURCE, { headers: { 'content-type': 'text/javascript' } });
    };
    const r = await resolveFrameDefinitions(t, { fetch });
    assert.equal(r.scripts[APP], 'Scanned');
    return t.toTrace().frames;
  } finally {
    t.dispose();
  }
}

test('scans that went with a trapped tools module are read again into the fresh one', async () => {
  assert.equal(toolsSeparate(), true, "the page's build: the tools module is a module of its own");
  const log = [];
  const defined = [
    { name: 'work', resourceId: 0, line: 1, column: 14 },
    { name: 'step', resourceId: 0, line: 4, column: 14 },
  ];
  assert.deepEqual(await resolveOnce(log), defined);
  assert.deepEqual(await resolveOnce(log), defined);
  assert.equal(log.length, 1, 'scanned once while the module lives');
  await assert.rejects(
    withTools(() => {
      throw new WebAssembly.RuntimeError('unreachable');
    }),
    /tools module trapped/,
  );
  assert.deepEqual(await resolveOnce(log), defined);
  assert.equal(log.length, 2, 'read again into the fresh module');
});
