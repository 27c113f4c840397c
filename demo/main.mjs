// The main job: build if needed, serve the demo on 127.0.0.1 and print its
// URL; or, with --headless --out DIR [--seconds N], drive Debian's Chromium
// through the demo and write one file per export format (trace.json,
// profile.cpuprofile, trace.pftrace, …) into DIR (via the page's own
// download links).
//
//   node demo/main.mjs [--port N]
//   node demo/main.mjs --headless --out DIR [--seconds N]
import { chromiumLaunchOptions } from '../js/node/chromium.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startStaticServer, root } from '../e2e/server.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const value = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
};

function buildIfNeeded() {
  const needed = ['dist/webprof.mjs', 'dist/webprof-core.wasm', 'build/wasm/wasm/webprof-core.mjs'];
  if (needed.every((f) => existsSync(join(root, f)))) return;
  console.error('[demo] building the Wasm core and dist/ (first run)…');
  execFileSync(process.execPath, [join(root, 'js/tools/build.mjs'), '--js-only'], {
    cwd: root,
    stdio: 'inherit',
  });
}

buildIfNeeded();
const headless = flag('headless');
const port = Number(value('port', headless ? 0 : process.env.WEBPROF_PORT || 8080));
const server = await startStaticServer({ port });
const base = `http://127.0.0.1:${server.address().port}`;
// The header lets Chromium's native Profiler run (Document-Policy: js-profiling).
const demoUrl = `${base}/demo/?policy=js-profiling`;

// The Perfetto UI where it can be reached; the flame chart (speedscope from
// node_modules) needs no network either way.
async function perfettoParam() {
  try {
    const r = await fetch('https://ui.perfetto.dev/', { method: 'HEAD', signal: AbortSignal.timeout(3000) });
    return r.ok ? 'https://ui.perfetto.dev' : 'none';
  } catch {
    return 'none';
  }
}

if (!headless) {
  // Opening the printed URL profiles the workload for 3 s at once and shows
  // the summary, the downloads, the flame chart and (online) the Perfetto UI.
  const perfetto = await perfettoParam();
  console.log(`webprof demo: ${demoUrl}&profile=3&perfetto=${encodeURIComponent(perfetto)}`);
  if (perfetto === 'none')
    console.log('(the Perfetto UI is not reachable: the flame chart is speedscope, offline)');
  console.log(`(without &profile=N it waits for the Profile button; Ctrl-C to stop)`);
} else {
  const out = resolve(value('out', 'out'));
  const seconds = Number(value('seconds', 3));
  mkdirSync(out, { recursive: true });
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch(chromiumLaunchOptions());
  let code = 0;
  try {
    const page = await browser.newPage({ acceptDownloads: true });
    page.on('pageerror', (e) => console.error(`[page] ${e.message}`));
    await page.goto(`${demoUrl}&profile=${seconds}`);
    await page.waitForFunction(() => ['done', 'error'].includes(window.demo?.state), null, {
      timeout: (seconds + 60) * 1000,
    });
    const demo = await page.evaluate(() => ({
      state: window.demo.state,
      error: window.demo.error,
      summary: window.demo.summary,
    }));
    if (demo.state !== 'done') throw new Error(`the demo failed: ${demo.error}`);
    // The page makes one link per export format.
    const links = await page.$$eval('#download-links a[download]', (as) => as.map((a) => [a.id, a.download]));
    for (const [id, file] of links) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#${id}`)]);
      await download.saveAs(join(out, file));
      console.log(`wrote ${join(out, file)}`);
    }
    console.log('top functions by self time:');
    for (const r of demo.summary.slice(0, 5)) console.log(`  ${r.samples.toString().padStart(6)}  ${r.name}`);
  } catch (e) {
    console.error(`[demo] ${e.message}`);
    code = 1;
  } finally {
    await browser.close();
    server.close();
  }
  process.exit(code);
}
