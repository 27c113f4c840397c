// The Wasm core's frames stay webprof's own after the URL it was loaded from
// is gone: webprof/playwright's agent hands the core over as a global
// `webprofWasmUrl` (a data: URL) and deletes it once the core is loaded, so
// a native trace imported later (at stop) must still drop frames of that URL.
// Run in a process of its own: the global is read when webprof loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test("the core's own URL outlives the global it came from", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'webprof-core-url-'));
  try {
    // Somewhere else than the package's own .wasm, as the agent's data: URL is.
    const file = join(dir, 'elsewhere-core.wasm');
    copyFileSync(join(root, 'dist', 'webprof-core.wasm'), file);
    const url = pathToFileURL(file).href;
    globalThis.webprofWasmUrl = url;
    const webprof = await import('webprof');
    await webprof.ready;
    delete globalThis.webprofWasmUrl; // as the agent does once the core is loaded
    const trace = webprof.importTrace({
      resources: [url, 'https://app.test/app.js'],
      frames: [
        { name: 'work', resourceId: 1, line: 3, column: 10 },
        { name: 'wasm-function[42]', resourceId: 0 },
      ],
      stacks: [{ frameId: 0 }, { frameId: 1, parentId: 0 }],
      samples: [{ timestamp: 1, stackId: 1 }],
    });
    assert.deepEqual(trace.resources, ['https://app.test/app.js']);
    assert.deepEqual(
      trace.frames.map((f) => f.name),
      ['work'],
    );
    // The core's time goes to the page function that called it.
    assert.equal(trace.frames[trace.stacks[trace.samples[0].stackId].frameId].name, 'work');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
