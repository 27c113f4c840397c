// The package from `npm pack`, installed in fresh projects and built by each
// bundler the README covers, loads its core in Chromium with no setup beyond
// the README's (e2e/bundlers/projects.mjs builds them).
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStaticServer } from './server.mjs';
import {
  packTarball,
  newProject,
  viteBuild,
  viteDev,
  webpackBuild,
  esbuildBuild,
} from './bundlers/projects.mjs';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const EXPECTED = { frames: ['bundled'], samples: 1, aggregates: ['bundled-probe'] };
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

async function run(page, url) {
  const failed = [];
  page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  await page.goto(url);
  const result = await page
    .waitForFunction(() => window.result)
    .then(() => page.evaluate(() => window.result));
  expect(failed).toEqual([]);
  return result;
}

async function serveBuild(page, build, name) {
  const dir = newProject(pkg, name);
  cleanup.push(dir);
  const out = await build(dir);
  const server = await startStaticServer({ base: out });
  try {
    return await run(page, `http://127.0.0.1:${server.address().port}/index.html`);
  } finally {
    server.close();
  }
}

test('Vite build', async ({ page }) => {
  expect(await serveBuild(page, viteBuild, 'vite')).toEqual(EXPECTED);
});

test('Vite dev server', async ({ page }) => {
  const dir = newProject(pkg, 'vite-dev');
  cleanup.push(dir);
  const server = await viteDev(dir);
  try {
    expect(await run(page, server.resolvedUrls.local[0])).toEqual(EXPECTED);
  } finally {
    await server.close();
  }
});

test('webpack 5', async ({ page }) => {
  expect(await serveBuild(page, webpackBuild, 'webpack')).toEqual(EXPECTED);
});

test('esbuild (with the README copy step)', async ({ page }) => {
  expect(await serveBuild(page, esbuildBuild, 'esbuild')).toEqual(EXPECTED);
});
