// A real picture with no network: `webprof record` writes report.html (one
// file, a flame graph in plain HTML) and viewer/ (speedscope's built app from
// npm, loaded with the profile), and --open hands the viewer to the desktop's
// browser; the demo shows the same flame chart. Each is opened in headless
// Chromium the way a user would (file:// for the recording) and must show the
// hot function; screenshots go to the test's output.
import { test, expect } from '@playwright/test';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, startStaticServer } from './server.mjs';
import { webprofCli } from '../tests/support/spawn.mjs';

test.describe.configure({ timeout: 120_000 });

const recordCli = (args, env = {}) => webprofCli(['record', ...args], { env: { ...process.env, ...env } });

// speedscope's sandwich view is a DOM table of the functions.
async function speedscopeFunctions(frame) {
  await frame.waitForSelector('canvas', { timeout: 30_000 });
  await frame.getByText('Sandwich').click();
  await expect(frame.locator('body')).toContainText('Symbol Name', { timeout: 10_000 });
  return frame.locator('body').innerText();
}

test('webprof record --open: report.html and the speedscope viewer show the hot function offline', async ({
  page,
}, testInfo) => {
  const server = await startStaticServer({ port: 0, base: join(root, 'e2e/pages/record') });
  const out = mkdtempSync(join(tmpdir(), 'webprof-viewer-'));
  // A desktop without a browser: a stand-in xdg-open that notes what it was asked to open.
  const bin = mkdtempSync(join(tmpdir(), 'webprof-xdg-'));
  const opened = join(bin, 'opened.txt');
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  let r;
  try {
    const url = `http://127.0.0.1:${server.address().port}/untouched.html`;
    r = await recordCli([url, '--seconds', '1.5', '--out', out, '--open'], {
      PATH: `${bin}:${process.env.PATH}`,
    });
  } finally {
    server.close();
  }
  expect(r.status, r.stderr).toBe(0);
  expect(existsSync(join(out, 'report.html'))).toBe(true);
  await expect.poll(() => existsSync(opened)).toBe(true);
  const viewerUrl = readFileSync(opened, 'utf8');
  expect(viewerUrl).toContain(`${pathToFileURL(join(out, 'viewer/index.html')).href}#localProfilePath=`);
  expect(r.stderr).toContain(`opened ${viewerUrl}`);

  // The self-contained page: no script, no other file.
  const report = readFileSync(join(out, 'report.html'), 'utf8');
  expect(report).not.toMatch(/<script|src=|href=/);
  await page.goto(pathToFileURL(join(out, 'report.html')).href);
  await expect(page.locator('#flame .box', { hasText: 'crunchPrimesUntouched' }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('report.png'), fullPage: true });

  // The speedscope viewer, from file:// as --open gives it to the browser.
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const requests = [];
  page.on('request', (q) => requests.push(q.url()));
  await page.goto(viewerUrl);
  const text = await speedscopeFunctions(page.mainFrame());
  expect(text).toContain('crunchPrimesUntouched');
  await page.getByText('Time Order').click();
  await page.screenshot({ path: testInfo.outputPath('speedscope.png') });
  expect(errors).toEqual([]);
  expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
});

test('npm start: the demo shows the workload as a speedscope flame chart without the Perfetto UI', async ({
  page,
}, testInfo) => {
  await page.goto('/demo/?policy=js-profiling&profile=1.5&perfetto=none');
  await page.waitForFunction(() => ['done', 'error'].includes(window.demo?.state), null, { timeout: 60_000 });
  expect(await page.evaluate(() => window.demo.error)).toBeNull();
  await expect(page.locator('#perfetto')).toBeHidden();
  const frame = page.frames().find((f) => f.url().includes('/node_modules/speedscope/'));
  expect(frame, 'the speedscope frame').toBeTruthy();
  await frame.waitForSelector('canvas', { timeout: 30_000 });
  await page.locator('#flame').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('demo-flame.png'), fullPage: true });
  await speedscopeFunctions(frame);
  // The workload's own functions (demo/workload.mjs); the table's rows come
  // a moment after its header on a loaded machine.
  await expect(frame.locator('body')).toContainText(
    /decodePayload|sortRows|filterRows|renderRow|compareRows/,
    {
      timeout: 10_000,
    },
  );
});
