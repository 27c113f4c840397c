// The guard of the transform's checks (js/profiler/dense.mjs): transformed
// code reads the global `__wp$on`, 0 while no session runs, so its checks do
// nothing (V8 folds the guard away); a session turns it on and the checks
// sample; its end turns it off. Checks emitted before the guard
// (`if(--__wp$f[0]<0)__wp$s();`, tests/js/stride.test.mjs) keep working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformForSampling } from 'webprof/transform/esbuild';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'webprof.mjs');

test('the checks do nothing until a session runs, sample during it, and stop after it', async () => {
  const webprof = await import(pathToFileURL(dist).href);
  await webprof.ready;
  const dir = mkdtempSync(join(tmpdir(), 'wp-guard-'));
  try {
    const r = await transformForSampling(
      'export function busy(ms) {\n' +
        '  const end = performance.now() + ms;\n' +
        '  let x = 0;\n' +
        '  while (performance.now() < end) { x++; }\n' +
        '  return x;\n' +
        '}\n',
      { runtime: dist },
    );
    assert.match(r.code, /if\(__wp\$on&&__wp\$f&&--__wp\$f\[0\]<__wp\$f\[1\]\)delete __wp\$p\.s;/);
    writeFileSync(join(dir, 'busy.mjs'), r.code);
    const { busy } = await import(pathToFileURL(join(dir, 'busy.mjs')).href);
    const { __wp$f } = webprof;

    assert.equal(globalThis.__wp$on, 0, 'defined by the runtime, off');
    const parked = __wp$f[0];
    busy(10);
    assert.equal(__wp$f[0], parked, 'no check decremented the counter');

    const p = new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 10000, backend: 'polyfill' });
    assert.equal(globalThis.__wp$on, 1, 'on while a session runs');
    busy(40); // one synchronous task: only the checks can sample it
    const trace = await p.stop();
    const inBusy = trace.samples.filter((s) => {
      for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
        if (trace.frames[trace.stacks[id].frameId].name === 'busy') return true;
      return false;
    });
    assert.ok(inBusy.length >= 3, `only ${inBusy.length} samples inside the 40 ms loop`);

    assert.equal(globalThis.__wp$on, 0, 'off again once no session runs');
    const after = __wp$f[0];
    busy(10);
    assert.equal(__wp$f[0], after);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
