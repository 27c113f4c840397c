// Loading the core as a user meets it: errors are short and free of
// Emscripten's text and of the Wasm bytes; setWasmUrl() counts only before
// loading starts. Each case runs in a fresh Node process (one core each).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWithFreshWebprof } from '../support/fresh-webprof.mjs';

const run = (setup, body) => runWithFreshWebprof(`${setup}\n${body}`);

test('a bad data: URL (as the Playwright agent ships the .wasm) gives a short error', () => {
  const r = run(
    "globalThis.webprofWasmUrl = 'data:application/wasm;base64,' + 'QUFB'.repeat(80000);",
    'const e = await w.ready.then(() => null, (e) => e); console.log(JSON.stringify({ name: e.name, message: e.message }));',
  );
  assert.equal(r.name, 'WebprofError');
  assert.ok(r.message.length < 500, `${r.message.length} chars: ${r.message.slice(0, 200)}`);
  assert.doesNotMatch(r.message, /ASSERTIONS|Aborted\(|(QUFB){20}/);
  assert.match(
    r.message,
    /^webprof: could not load the Wasm core from data:application\/wasm;base64,… \(\d+ chars\)/,
  );
});

test('a missing file names where it looked', () => {
  const r = run(
    '',
    "w.setWasmUrl(new URL('file:///nonexistent/webprof-core.wasm'));" +
      'const e = await w.ready.then(() => null, (e) => e); console.log(JSON.stringify(e.message));',
  );
  assert.match(
    r,
    /^webprof: could not load the Wasm core from file:\/\/\/nonexistent\/webprof-core\.wasm: .*ENOENT/,
  );
});

test('setWasmUrl() after loading started throws a clear error', () => {
  const r = run(
    '',
    'await w.ready; try { w.setWasmUrl("x.wasm"); console.log("null"); } catch (e) { console.log(JSON.stringify(e.message)); }',
  );
  assert.match(r, /setWasmUrl\(\) came after the Wasm core started loading/);
});
