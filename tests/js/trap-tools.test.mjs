// A trap inside a call into the tools on the Node-side core (where the
// tools are linked into the core itself): it poisons the core whichever of
// the three ways the call came in (withTools awaited, withToolsSync,
// withToolsNow) — the asynchronous one included. js/ is loaded with the
// Node-side core, as dist/'s Node entries are built (js/tools/build.mjs
// resolves wasm-page.mjs to wasm-node.mjs); its own process, as the
// instance stays poisoned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';

const hooks = `export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  return r.url.endsWith('/js/core/wasm-page.mjs') ? { ...r, url: r.url.replace(/wasm-page\\.mjs$/, 'wasm-node.mjs') } : r;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
globalThis.webprofWasmUrl = new URL('../../build/wasm/wasm/webprof-core-node.wasm', import.meta.url).href;
const { ready, isReady, WebprofError, TraceSession, transformForSampling } =
  await import('../../js/index.mjs');
const { withTools, toolsSeparate } = await import('../../js/core/tools.mjs');
await ready;

const isPoisoned = (e) => e instanceof WebprofError && /trapped/.test(e.message);

test('an ordinary error from an awaited tools call passes through unchanged', async () => {
  const e = new TypeError('not a trap');
  await assert.rejects(
    withTools(() => {
      throw e;
    }),
    (got) => got === e,
  );
  assert.equal(isReady(), true);
});

test('a Wasm trap in an awaited tools call poisons the Node-side core', async () => {
  assert.equal(toolsSeparate(), false, 'the Node-side core links the tools');
  assert.equal((await transformForSampling('function f(){ for(;;) { break; } }')).status, 'Ok');
  await assert.rejects(
    withTools(() => {
      throw new WebAssembly.RuntimeError('unreachable');
    }),
    isPoisoned,
  );
  assert.equal(isReady(), false);
  await assert.rejects(transformForSampling('function h(){}'), isPoisoned);
  assert.throws(() => new TraceSession({ maxBufferSize: 10 }), isPoisoned);
});
