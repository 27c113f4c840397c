// `webprof record <url>`: profile a page in headless Chromium and write one
// file per export format (exportFormats(): trace.json, profile.cpuprofile,
// trace.pftrace, profile.pb.gz, …) and summary.txt.
//
// Progress goes to stderr; every failure prints one line starting with
// "webprof record:" and exits non-zero (2 = bad usage, 1 = runtime failure).
import { access, mkdir, writeFile, unlink } from 'node:fs/promises';
import { constants, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { install, stopProfile, watchPageErrors } from './page-profile.mjs';
import { makeResult } from './result.mjs';
import { NATIVE_FLOOR_MS, startDevToolsSampler } from './devtools-sampler.mjs';
import { recordInWebKit } from './webkit-record.mjs';
import { recordInFirefox } from './firefox.mjs';
import { chromiumLaunchOptions, CHROMIUM_PATH, SHARED_MEMORY_ARG } from './chromium.mjs';
import { writeReport, openInBrowser } from './report.mjs';
import { mergeMain } from './merge-cli.mjs';

// The package version: set by the build (js/tools/build.mjs); from source, package.json.
const VERSION =
  typeof __WEBPROF_VERSION__ === 'string'
    ? __WEBPROF_VERSION__
    : JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

const HELP = `usage: webprof <command> [options]
  webprof record <url> [options]   profile a page in headless Chromium (webprof record --help)
  webprof merge <file>... [options] add profiles of any format up into one (webprof merge --help)
  webprof --version                print the version
  webprof --help                   this text`;

const USAGE = `usage: webprof record <url> [options]
  --out DIR               output folder (default ./webprof-out)
  --seconds N             profile for N seconds after load (default 5)
  --until-selector SEL    stop when SEL appears (with --seconds as the time limit)
  --script FILE           an ES module whose default export async ({page, context}) runs after load
  --sample-interval MS    sampling interval in ms (default 1; --interval MS is the same)
  --backend B             auto | native | polyfill (default auto)
  --native                serve documents with Document-Policy: js-profiling (Chromium's own sampler);
                          with --interval below 10 (its floor), Chromium's DevTools sampler instead
  --no-dense              do not pass the page's scripts through the sampling transform (polyfill)
  --no-ticker             do not let pages share memory with a Worker: the polyfill's checks then run in
                          counter mode (time shares lean toward code with dense checks)
  --browser PATH          Chromium executable (default /usr/bin/chromium)
  --browser firefox       Firefox ESR via puppeteer-core with its own (Gecko) profiler; no page changes
  --browser webkit        WebKit (JavaScriptCore) via WebKitWebDriver under xvfb-run; polyfill only,
                          http:// pages; a --script gets {webkit} (js/node/webkit.mjs) instead of {page}
  --timeout-ms N          navigation timeout (default 30000)
  --open                  open the flame chart (speedscope, offline) in the desktop's browser afterwards;
                          report.html (summary + flame graph, one file) is written either way`;

class UsageError extends Error {}
class RecordError extends Error {}

const DEFAULTS = {
  out: 'webprof-out',
  seconds: 5,
  untilSelector: null,
  script: null,
  sampleInterval: 1,
  backend: 'auto',
  native: false,
  dense: true,
  ticker: true,
  browser: CHROMIUM_PATH,
  timeoutMs: 30000,
  open: false,
  url: null,
};

function parseArgs(argv) {
  const [cmd, ...rest] = argv;
  if (cmd !== 'record') throw new UsageError(cmd ? `unknown command "${cmd}"` : 'missing command');
  const o = { ...DEFAULTS, sampleIntervalGiven: false };
  const num = (name, v) => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < 0)
      throw new UsageError(`${name} needs a number >= 0, got "${v}"`);
    return n;
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const val = () => {
      if (i + 1 >= rest.length) throw new UsageError(`${a} needs a value`);
      return rest[++i];
    };
    if (a === '--out') o.out = val();
    else if (a === '--seconds') o.seconds = num(a, val());
    else if (a === '--until-selector') o.untilSelector = val();
    else if (a === '--script') o.script = val();
    else if (a === '--sample-interval' || a === '--interval') {
      o.sampleInterval = num(a, val());
      o.sampleIntervalGiven = true;
    } else if (a === '--backend') {
      o.backend = val();
      if (!['auto', 'native', 'polyfill'].includes(o.backend))
        throw new UsageError(`--backend must be auto, native or polyfill, got "${o.backend}"`);
    } else if (a === '--native') o.native = true;
    else if (a === '--no-dense') o.dense = false;
    else if (a === '--no-ticker') o.ticker = false;
    else if (a === '--browser') o.browser = val();
    else if (a === '--timeout-ms') o.timeoutMs = num(a, val());
    else if (a === '--open') o.open = true;
    else if (a === '-h' || a === '--help') throw new UsageError('');
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else if (!o.url) o.url = a;
    else throw new UsageError(`unexpected argument "${a}"`);
  }
  if (!o.url) throw new UsageError('missing <url>');
  try {
    new URL(o.url);
  } catch {
    throw new UsageError(`not a URL: "${o.url}"`);
  }
  if (o.backend === 'native') o.native = true;
  return o;
}

async function checkWritable(dir) {
  try {
    await mkdir(dir, { recursive: true });
    const probe = join(dir, `.webprof-write-test-${process.pid}`);
    await writeFile(probe, '');
    await unlink(probe);
  } catch (e) {
    throw new RecordError(`cannot write to the output folder ${dir}: ${e.code || e.message}`);
  }
}

/**
 * Records `o.url` (the options of the usage, camelCased; defaults as there)
 * and writes the files into `o.out`; resolves to the Playwright result.
 */
export async function record(options, log = (m) => process.stderr.write(m + '\n')) {
  const o = { ...DEFAULTS, ...options };
  o.sampleIntervalGiven = options.sampleIntervalGiven ?? options.sampleInterval !== undefined;
  if (o.backend === 'native') o.native = true;
  const t0 = Date.now();
  const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  const out = resolve(o.out);
  await checkWritable(out);
  let actions = null;
  if (o.script) {
    try {
      actions = (await import(pathToFileURL(resolve(o.script)).href)).default;
    } catch (e) {
      throw new RecordError(`cannot load the script ${o.script}: ${e.message.split('\n')[0]}`);
    }
    if (typeof actions !== 'function')
      throw new RecordError(`the script ${o.script} has no default export function`);
  }
  if (o.browser === 'webkit') {
    if (o.native) throw new RecordError('WebKit has no native Profiler: --native needs Chromium');
    let got;
    try {
      got = await recordInWebKit({ ...o, actions }, log, elapsed);
    } catch (e) {
      throw new RecordError(`WebKit: ${e.message.split('\n')[0]}`);
    }
    for (const e of got.pageErrors) log(`[${elapsed()}] page error: ${e.name}: ${e.message}`);
    const result = await makeResult(got.data, { unsampled: got.unsampled, pageErrors: got.pageErrors });
    return finish(result, out, o.dense, log, elapsed);
  }
  if (o.browser === 'firefox') {
    let result;
    try {
      result = await recordInFirefox({ ...o, actions }, log, elapsed);
    } catch (e) {
      throw new RecordError(`Firefox: ${e.message.split('\n')[0]}`);
    }
    return finish(result, out, false, log, elapsed);
  }
  try {
    await access(o.browser, constants.X_OK);
  } catch {
    throw new RecordError(`cannot start the browser: ${o.browser} is not an executable file`);
  }
  const { chromium } = await loadPlaywright();
  log(`[${elapsed()}] starting ${o.browser}`);
  let browser;
  try {
    // Shared memory for the polyfill's time-faithful ticker (chromium.mjs).
    const extraArgs = o.ticker && !o.native ? [SHARED_MEMORY_ARG] : [];
    browser = await chromium.launch(
      chromiumLaunchOptions({ executablePath: o.browser, timeout: 30000, extraArgs }),
    );
  } catch (e) {
    throw new RecordError(`cannot start the browser ${o.browser}: ${e.message.split('\n')[0]}`);
  }
  try {
    const context = await browser.newContext();
    const autoStart = { sampleInterval: o.sampleInterval, maxBufferSize: 10_000_000, backend: o.backend };
    // The native sampler needs no transform; the polyfill gets dense
    // samples from the page's own scripts, rewritten as they load.
    const dense = o.dense && !o.native;
    // Native below its 10 ms floor: the DevTools sampler, the page untouched.
    const devtools = o.native && o.sampleIntervalGiven && o.sampleInterval < NATIVE_FLOOR_MS;
    if (!devtools) await install(context, { native: o.native, dense, autoStart });
    const page = await context.newPage();
    const sampler = devtools ? await startDevToolsSampler(page, o.sampleInterval) : null;
    const errors = watchPageErrors(page);
    let errorsShown = 0;
    const showErrors = () => {
      for (; errorsShown < errors.length; errorsShown++)
        log(`[${elapsed()}] page error: ${errors[errorsShown].name}: ${errors[errorsShown].message}`);
    };
    log(`[${elapsed()}] loading ${o.url}`);
    try {
      const response = await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
      if (response && !response.ok()) throw new Error(`HTTP ${response.status()} ${response.statusText()}`);
    } catch (e) {
      throw new RecordError(`cannot load ${o.url}: ${e.message.split('\n')[0]}`);
    }
    if (actions) {
      log(`[${elapsed()}] running ${o.script}`);
      await actions({ page, context });
    }
    const deadline = Date.now() + o.seconds * 1000;
    let found = false;
    while (Date.now() < deadline) {
      if (o.untilSelector && (await page.$(o.untilSelector))) {
        found = true;
        break;
      }
      const samples = sampler
        ? null
        : await page
            .evaluate(() => {
              const s = globalThis.__webprof__ && globalThis.__webprof__.__session;
              return s && s.profiler && typeof s.profiler.sampleCount === 'number'
                ? s.profiler.sampleCount
                : null;
            })
            .catch(() => null); // the page is between two documents
      showErrors();
      log(`[${elapsed()}] profiling${samples === null ? '' : `, ${samples} samples so far`}`);
      await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, deadline - Date.now()))));
    }
    if (o.untilSelector && !found)
      log(`[${elapsed()}] ${o.untilSelector} did not appear within ${o.seconds}s; stopping`);
    const result = sampler
      ? await makeResult(await sampler.stop(), { pageErrors: [...errors] })
      : await stopProfile(page);
    showErrors();
    return await finish(result, out, dense, log, elapsed);
  } finally {
    await browser.close();
  }
}

// Writes the files and says what was recorded (every browser).
async function finish(result, out, dense, log, elapsed) {
  const written = await result.save(out);
  const report = await writeReport(out, result, 'webprof record');
  written.push(...report.written);
  result.viewerUrl = report.viewerUrl;
  for (const u of result.unsampled)
    log(`[${elapsed()}] not rewritten for dense sampling: ${u.url}: ${u.reason}`);
  for (const w of result.workers)
    log(`[${elapsed()}] worker ${w.url}: ${w.trace.samples.length} samples (${w.backend} sampler)`);
  if (result.diagnostic) log(`[${elapsed()}] ${result.diagnostic}`);
  log(
    `[${elapsed()}] ${result.trace.samples.length} samples (${result.backend} sampler); wrote ${written.join(', ')}`,
  );
  // A SyntaxError while webprof rewrote the page's scripts may be ours:
  // the recording is then not the page's behaviour.
  const broken = dense && result.pageErrors.find((e) => e.name === 'SyntaxError');
  if (broken)
    throw new RecordError(
      `the page threw ${broken.name}: ${broken.message} while its scripts were rewritten for dense sampling; ` +
        `the files are written, but rerun with --no-dense to check whether the rewriting caused it`,
    );
  return result;
}

// playwright-core is an optional peer dependency: browser users of webprof
// install nothing for it, `webprof record` says how to get it.
async function loadPlaywright() {
  try {
    return await import('playwright-core');
  } catch (e) {
    if (e && e.code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw new RecordError('needs playwright-core: npm install --save-dev playwright-core');
  }
}

export async function main(argv) {
  const [first] = argv;
  if (first === '--version' || first === '-v' || first === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (first === 'merge') return mergeMain(argv.slice(1));
  let o;
  try {
    o = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      if (!e.message) {
        process.stdout.write(USAGE + '\n');
        return 0;
      }
      process.stderr.write(`webprof record: ${e.message} (see webprof record --help)\n`);
      return 2;
    }
    throw e;
  }
  try {
    const result = await record(o);
    process.stdout.write(result.summaryText);
    if (o.open) {
      const url = result.viewerUrl || pathToFileURL(join(resolve(o.out), 'report.html')).href;
      if (!result.viewerUrl)
        process.stderr.write(
          'webprof record: for the speedscope flame chart: npm install --save-dev speedscope\n',
        );
      const opened = await openInBrowser(url);
      process.stderr.write(`webprof record: ${opened ? 'opened' : 'open this in a browser:'} ${url}\n`);
      process.stderr.write(
        'webprof record: trace.pftrace also opens in the Perfetto UI (https://ui.perfetto.dev)\n',
      );
    }
    return 0;
  } catch (e) {
    process.stderr.write(`webprof record: ${e instanceof RecordError ? e.message : e.stack || e}\n`);
    return 1;
  }
}
