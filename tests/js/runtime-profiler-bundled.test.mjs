// RuntimeProfiler bundled into a page's own script (one file for webprof and
// the app): webprof's own frames are recognised by the name marker alone, so
// the app's frames — in the same file — stay in frame() backtraces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('frame() in an app bundle keeps the app frames and drops webprof frames', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'webprof-bundle-'));
  try {
    const outfile = join(dir, 'app.mjs');
    await esbuild.build({
      stdin: {
        contents: `
          import { ready, RuntimeProfiler } from './js/index.mjs';
          export async function run() {
            await ready;
            const p = new RuntimeProfiler();
            p.start();
            function appFunction() { p.frame().tag = 'app'; }
            appFunction();
            p.stop();
            return p.results();
          }`,
        resolveDir: root,
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile,
      logLevel: 'silent',
    });
    // The loader finds the .wasm next to the bundle, as an app ships it.
    copyFileSync(join(root, 'dist', 'webprof-core.wasm'), join(dir, 'webprof-core.wasm'));
    const { run } = await import(pathToFileURL(outfile).href);
    const r = await run();
    const names = [];
    (function walk(n) {
      if (n.function) names.push(n.function.name);
      n.children.forEach(walk);
    })(r);
    assert.ok(names.includes('appFunction'), JSON.stringify(names));
    assert.ok(!names.some((n) => n.includes('webprof') || n === 'frame'), JSON.stringify(names));
    const app = (function find(n) {
      if (n.function && n.function.name === 'appFunction') return n;
      for (const c of n.children) {
        const hit = find(c);
        if (hit) return hit;
      }
      return null;
    })(r);
    assert.equal(app.tag, 'app');
    assert.equal(app.function.file, pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
