// The README's first three snippets of "Use it", read from README.md (not
// copied here) and run as a user would: each gives a non-empty profile
// with the user's function in it.
//  1. the drop-in <script> with data-dense, on a site that serves
//     dist/ and /webprof-sw.js at its root (first visit, then a reload);
//  2. the ES module, bundled by esbuild with the README's transform and its
//     copy step for the .wasm, the trace opened in "Perfetto" (a receiver
//     routed at ui.perfetto.dev: the machine is offline);
//  3. the Playwright fixture's test file, run by `playwright test` in a
//     project of its own, against a site with /checkout and #pay.
// The user's code (doWork, the checkout page) never reads the clock: only
// the rewritten or transformed code's own checks can sample inside it.
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { startStaticServer, root } from './server.mjs';
import { spawnText } from '../tests/support/spawn.mjs';

/** The fenced code blocks of README.md's "## Use it" section, in order. */
function useItSnippets() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Use it\n');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2] }));
}
const snippets = useItSnippets();

// The user's function: ~50-150 ms of synchronous work that calls nothing of
// the platform.
const USER_CODE = `function doWork() {
  let x = 0;
  for (let i = 0; i < 3e7; i++) {
    x += Math.sqrt(i);
  }
  return x;
}
`;

const dir = (name) => {
  const d = join(root, 'build/readme-snippets', name);
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  return d;
};

const run = spawnText;

function namesOnStacks(trace) {
  const names = new Set();
  for (const s of trace.samples)
    for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
      names.add(trace.frames[trace.stacks[id].frameId].name);
  return names;
}

test('snippet 1: the drop-in <script> with data-dense, as the README says to serve it', async ({ page }) => {
  const { lang, code } = snippets[0];
  expect(lang).toBe('html');
  expect(code).toContain('data-dense');
  const site = dir('dropin');
  mkdirSync(join(site, 'dist'));
  for (const f of ['webprof.js', 'webprof-core.wasm', 'webprof-tools.wasm', 'webprof-tools.js'])
    cpSync(join(root, 'dist', f), join(site, 'dist', f));
  cpSync(join(root, 'dist/webprof-sw.js'), join(site, 'webprof-sw.js')); // "copy … to the site's root"
  writeFileSync(join(site, 'app.js'), USER_CODE);
  writeFileSync(join(site, 'index.html'), `<!doctype html>\n<meta charset="utf-8" />\n${code}`);
  const server = await startStaticServer({ port: 0, base: site });
  try {
    const traces = [];
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', async (m) => {
      if (m.type() === 'log') traces.push(m.args()[0].jsonValue());
    });
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    expect(await page.evaluate(() => webprof.denseReady)).toBe(false);
    await expect.poll(() => traces.length).toBe(1);
    // The reload comes through the service worker: app.js is rewritten.
    await page.reload();
    expect(await page.evaluate(() => webprof.denseReady)).toBe(true);
    await expect.poll(() => traces.length).toBe(2);
    const trace = await traces[1];
    expect(trace.samples.length).toBeGreaterThan(0);
    expect([...namesOnStacks(trace)]).toContain('doWork');
    expect(errors).toEqual([]);
  } finally {
    server.close();
  }
});

test('snippet 2: the ES module, bundled with esbuild and the README transform, opened in Perfetto', async ({
  page,
}) => {
  const { lang, code } = snippets[1];
  expect(lang).toBe('js');
  expect(code).toMatch(/from 'webprof'/);
  const project = dir('esm');
  // The user's own package (without it, 'webprof' would resolve to this
  // repository itself: Node's self-reference comes before node_modules).
  writeFileSync(
    join(project, 'package.json'),
    '{ "name": "readme-app", "private": true, "type": "module" }\n',
  );
  // `npm install webprof`: the package's files (a copy, as npm makes: the
  // transform leaves node_modules/webprof/dist alone).
  const pkg = join(project, 'node_modules/webprof');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(project, 'work.js'), `export ${USER_CODE}`);
  writeFileSync(join(project, 'app.js'), `import { doWork } from './work.js';\n${code}`);
  writeFileSync(
    join(project, 'index.html'),
    '<!doctype html>\n<meta charset="utf-8" />\n<script type="module" src="out/app.js"></script>\n',
  );
  const { webprofSampling } = await import('webprof/transform/esbuild');
  await build({
    entryPoints: [join(project, 'app.js')],
    bundle: true,
    format: 'esm',
    outdir: join(project, 'out'),
    absWorkingDir: project,
    logLevel: 'silent',
    plugins: [webprofSampling()],
  });
  // The README's copy step: the core and the tools module (stop() loads the exporters from it).
  for (const f of ['webprof-core.wasm', 'webprof-tools.wasm'])
    cpSync(join(root, 'dist', f), join(project, 'out', f));
  // The Perfetto UI is online; this receiver answers its handshake and keeps the trace.
  await page.route('https://ui.perfetto.dev/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<script>addEventListener('message', (e) => {
        if (e.data === 'PING') e.source.postMessage('PONG', '*');
        else if (e.data && e.data.perfetto) window.received = [...new Uint8Array(e.data.perfetto.buffer)];
      });</script>`,
    }),
  );
  const server = await startStaticServer({ port: 0, base: project });
  try {
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    let ui;
    await expect
      .poll(() => (ui = page.frames().find((f) => f.url().startsWith('https://ui.perfetto.dev'))))
      .toBeTruthy();
    await ui.waitForFunction(() => window.received !== undefined);
    const pftrace = Buffer.from(await ui.evaluate(() => window.received));
    expect(pftrace.length).toBeGreaterThan(0);
    const decoded = spawnSync('protoc', ['--decode_raw'], { input: pftrace, encoding: 'utf8' });
    expect(decoded.status, decoded.stderr).toBe(0);
    expect(decoded.stdout).toContain('"doWork"');
    expect(errors).toEqual([]);
  } finally {
    server.close();
  }
});

test("snippet 3: the Playwright fixture's test file, run by `playwright test`", async () => {
  test.setTimeout(180_000);
  const { lang, code } = snippets[2];
  expect(lang).toBe('js');
  expect(code).toContain("from 'webprof/playwright'");
  const project = dir('fixture');
  const site = join(project, 'site');
  mkdirSync(join(site, 'checkout'), { recursive: true });
  // The user's checkout page: a synchronous price computation on #pay.
  writeFileSync(
    join(site, 'checkout/index.html'),
    `<!doctype html>\n<meta charset="utf-8" />\n<button id="pay">pay</button>\n<script>\n${USER_CODE}document.getElementById('pay').addEventListener('click', () => doWork());\n</script>\n`,
  );
  const server = await startStaticServer({ port: 0, base: site });
  try {
    // Inside this repository, `webprof/playwright` resolves to the package itself.
    writeFileSync(join(project, 'checkout.spec.mjs'), code);
    writeFileSync(
      join(project, 'playwright.config.mjs'),
      `import { chromiumLaunchOptions } from '${join(root, 'js/node/chromium.mjs')}';
export default {
  testDir: '.',
  testMatch: '*.spec.mjs',
  outputDir: './test-results', // not the outer run's (it would be cleared)
  reporter: 'line',
  use: { baseURL: 'http://127.0.0.1:${server.address().port}', launchOptions: chromiumLaunchOptions() },
};
`,
    );
    // A clean environment: none of this run's own Playwright worker variables.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(PW_|PLAYWRIGHT_|TEST_)/.test(k)),
    );
    // Asynchronously: the site's server runs in this process.
    const r = await run(
      process.execPath,
      [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'playwright.config.mjs'],
      { cwd: project, env },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1 passed/);
    // console.log(result.summaryText) and result.save('out/').
    expect(r.stdout).toContain('doWork');
    for (const f of ['trace.json', 'profile.cpuprofile', 'trace.pftrace', 'summary.txt'])
      expect(existsSync(join(project, 'out', f)), f).toBe(true);
    const cpu = JSON.parse(readFileSync(join(project, 'out/profile.cpuprofile'), 'utf8'));
    expect(cpu.samples.length).toBeGreaterThan(0);
    expect(cpu.nodes.map((n) => n.callFrame.functionName)).toContain('doWork');
  } finally {
    server.close();
  }
});
