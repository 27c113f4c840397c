// Every examples/ project, built by its own `npm run build` from the package
// `npm pack` makes, loads in Chromium with no setup beyond the README's: the
// core is ready, a Profiler records stacks in the app's bundle, every export format
// writes, and a probes window reaches the reporter (e2e/examples/projects.mjs).
import { test, expect } from '@playwright/test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStaticServer } from './server.mjs';
import { EXAMPLES, packTarball, newProject, build, viteDev } from './examples/projects.mjs';
import { ready, exportFormats, loadExporters } from 'webprof';

// Every format the registry holds, by the file name the example writes.
await ready;
await loadExporters();
const FILES = exportFormats()
  .map((f) => f.fileName)
  .sort();

// The cores a page can load and the tools module, by their bytes in this
// repository's dist/.
const CORES = ['webprof-core', 'webprof-probes', 'webprof-tools'].map((name) => ({
  name,
  text: readFileSync(new URL(`../dist/${name}.wasm`, import.meta.url), 'latin1'),
}));

const coreName = (text, name) => CORES.find((c) => c.text === text)?.name || name;

test.describe.configure({ mode: 'serial', timeout: 180_000 });

let pkg;
const cleanup = [];
test.beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'webprof-pack-'));
  cleanup.push(dir);
  pkg = packTarball(dir);
});
test.afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

// Profiler.stop() fetches the tools module (the exporters, source maps).
async function run(page, url) {
  const failed = [];
  const wasm = [];
  page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  page.on('response', (r) => new URL(r.url()).pathname.endsWith('.wasm') && wasm.push(r));
  await page.goto(url);
  const result = await page
    .waitForFunction(() => window.result)
    .then(() => page.evaluate(() => window.result));
  expect(failed).toEqual([]);
  expect(result.error).toBeUndefined();
  expect(result.backend).toBe('polyfill');
  expect(result.samples).toBeGreaterThan(0);
  // Stacks in the app's own bundle (names are the minifier's).
  expect(result.frames.length).toBeGreaterThan(0);
  const origin = new URL(url).origin;
  expect(
    result.resources.some((r) => r.startsWith(origin)),
    result.resources.join(' '),
  ).toBe(true);
  expect(Object.keys(result.exported).sort()).toEqual(FILES);
  for (const bytes of Object.values(result.exported)) expect(bytes).toBeGreaterThan(100);
  expect(result.aggregates).toEqual({ 'example:step': 3 });
  await expect(page.locator('#out')).toContainText('"samples"');
  // The app imports webprof and webprof/perf: one core, the page's, and the
  // tools module its stop() fetched for the exports.
  const fetched = [];
  for (const r of wasm) fetched.push(coreName((await r.body()).toString('latin1'), r.url()));
  expect(fetched).toEqual(['webprof-core', 'webprof-tools']);
  return result;
}

/** Every file under dir (no node_modules), with its text. */
function outputFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => !f.startsWith('node_modules') && statSync(join(dir, f)).isFile())
    .map((f) => ({ name: f, text: readFileSync(join(dir, f), 'latin1') }));
}

for (const name of EXAMPLES) {
  test(`examples/${name}: npm run build, then the page in Chromium`, async ({ page }) => {
    const dir = newProject(pkg, name);
    cleanup.push(dir);
    const out = build(dir);
    // The bundle must not point at the build machine (webpack once baked in
    // `file:///…/node_modules/webprof/dist/…`, which a browser refuses).
    for (const f of outputFiles(join(dir, 'dist'))) {
      const local = /file:\/\/\/[^\s'"`]*/.exec(f.text);
      expect(local && local[0], `${name}: dist/${f.name} names a local file`).toBeNull();
      expect(f.text.includes(dir), `${name}: dist/${f.name} names the build directory`).toBe(false);
    }
    // Vite and webpack emit every .wasm the code names — the page's core,
    // the probes' own (webprof/perf alone loads it) and the tools module
    // (fetched on a first transform or source map) — and the page fetches
    // one; esbuild's and Rollup's build scripts copy the core and the tools.
    // Told apart by their bytes: webpack names an asset by its hash alone.
    const emitted = outputFiles(join(dir, 'dist'))
      .filter((f) => f.name.endsWith('.wasm'))
      .map((f) => coreName(f.text, f.name));
    expect(emitted.sort()).toEqual(
      name === 'vite' || name === 'webpack'
        ? ['webprof-core', 'webprof-probes', 'webprof-tools']
        : ['webprof-core', 'webprof-tools'],
    );
    const server = await startStaticServer({ base: out });
    try {
      await run(page, `http://127.0.0.1:${server.address().port}/index.html`);
    } finally {
      server.close();
    }
  });
}

test('examples/vite: the dev server (npm run dev)', async ({ page }) => {
  const dir = newProject(pkg, 'vite');
  cleanup.push(dir);
  const server = await viteDev(dir);
  try {
    await run(page, server.resolvedUrls.local[0]);
    // vite.config.js's headers: isolated, so transformed code samples in ticker mode.
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
  } finally {
    await server.close();
  }
});
