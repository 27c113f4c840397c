// Firefox's own sampler where webprof drives the browser: Firefox ESR
// launched by puppeteer-core (WebDriver BiDi) with the Gecko profiler
// switched on from startup by environment variables. Firefox writes the
// whole profile (every process, every thread) when it shuts down; the
// core's importer (src/import/gecko_profile.h, js/import/gecko.mjs) takes
// the page's content-process main thread during the recording window and
// the result goes out as any other (makeResult: the export formats and
// summary.txt), with the sampler reported as Gecko.
//
//   const firefox = await launchProfiledFirefox({ interval: 1 });
//   const page = await firefox.browser.newPage();
//   const windowStart = Date.now();
//   await page.goto(url);            // ... the actions to profile
//   const result = await firefox.finish({ pageUrl: page.url(), windowStart });
//   await result.save('out');        // closes Firefox, imports its profile
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importGeckoProfile } from '../import/gecko.mjs';
import { ready } from '../core/core.mjs';
import { makeResult } from './result.mjs';

export const FIREFOX_PATH =
  (typeof process === 'object' && process.env.WEBPROF_FIREFOX) || '/usr/lib/firefox-esr/firefox-esr';

/** The environment that starts the Gecko profiler at launch and writes its profile to `file` at shutdown. */
export function geckoProfilerEnv(file, { interval = 1 } = {}) {
  return {
    MOZ_PROFILER_STARTUP: '1',
    // Gecko's interval is in ms, 1 at the finest that is verified here.
    MOZ_PROFILER_STARTUP_INTERVAL: String(Math.max(interval, 0.1)),
    MOZ_PROFILER_STARTUP_FEATURES: 'js,stackwalk',
    MOZ_PROFILER_SHUTDOWN: file,
  };
}

/**
 * Launches Firefox with its profiler on. Returns {browser, profilePath, finish(window)}:
 * finish({pageUrl, windowStart, windowEnd = Date.now()}) closes the browser, imports the
 * profile (the content process showing pageUrl, samples between the two Unix-ms times)
 * and resolves to a result like webprof/playwright's (trace, files, summary, save(dir)).
 * @param {{executablePath?: string, interval?: number, headless?: boolean, timeoutMs?: number}} [options]
 */
export async function launchProfiledFirefox(options = {}) {
  const puppeteer = await loadPuppeteer();
  const interval = options.interval ?? 1;
  const dir = await mkdtemp(join(tmpdir(), 'webprof-gecko-'));
  const profilePath = join(dir, 'profile.json');
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: options.executablePath ?? FIREFOX_PATH,
      headless: options.headless ?? true,
      timeout: options.timeoutMs ?? 60_000,
      env: { ...process.env, ...geckoProfilerEnv(profilePath, { interval }) },
    });
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  let finished = null;
  return {
    browser,
    profilePath,
    finish(window = {}) {
      finished ||= finish(browser, dir, profilePath, window, options.timeoutMs ?? 60_000);
      return finished;
    },
  };
}

async function finish(browser, dir, profilePath, window, timeoutMs) {
  const windowEnd = window.windowEnd ?? Date.now();
  try {
    await browser.close();
    const text = await waitForProfile(profilePath, timeoutMs);
    await ready;
    const imported = importGeckoProfile(text, {
      pageUrl: window.pageUrl ?? '',
      windowStart: window.windowStart,
      windowEnd,
    });
    // makeResult is the fixture's: the same files and summary as Chromium's.
    const result = await makeResult({
      trace: imported.trace,
      backend: 'gecko',
      sampleInterval: imported.sampleInterval,
      startedAt: 0,
    });
    return Object.assign(result, {
      gecko: {
        pid: imported.pid,
        tid: imported.tid,
        threadName: imported.threadName,
        processName: imported.processName,
        threadSamples: imported.threadSamples,
        timeOrigin: imported.timeOrigin,
      },
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Firefox writes the profile while it shuts down; the launcher's close()
// may return before the file is complete. Wait until its size settles.
async function waitForProfile(file, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  for (;;) {
    const size = await stat(file).then(
      (s) => s.size,
      () => -1,
    );
    if (size > 0 && size === last) return readFile(file);
    if (Date.now() > deadline)
      throw new Error(
        size < 0
          ? `Firefox wrote no profile to ${file} (is this Firefox built with its profiler?)`
          : `Firefox's profile ${file} was still being written after ${timeoutMs} ms`,
      );
    last = size;
    await new Promise((r) => setTimeout(r, 200));
  }
}

// puppeteer-core is an optional peer dependency, as playwright-core is.
async function loadPuppeteer() {
  try {
    return (await import('puppeteer-core')).default;
  } catch (e) {
    if (e && e.code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw new Error('needs puppeteer-core for Firefox: npm install --save-dev puppeteer-core');
  }
}

/**
 * `webprof record URL --browser firefox`: loads `o.url` in a profiled
 * Firefox, runs `o.actions({page, browser})`, waits `o.seconds` (or until
 * `o.untilSelector`), and returns finish()'s result; the window runs from
 * just before the navigation to the end of the wait.
 */
export async function recordInFirefox(o, log, elapsed) {
  log(`[${elapsed()}] starting Firefox (Gecko profiler, ${o.sampleInterval} ms)`);
  const firefox = await launchProfiledFirefox({
    executablePath: o.firefoxPath,
    interval: o.sampleInterval,
    timeoutMs: Math.max(o.timeoutMs, 30_000),
  });
  let page;
  let windowStart;
  try {
    page = await firefox.browser.newPage();
    log(`[${elapsed()}] loading ${o.url}`);
    windowStart = Date.now();
    await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
    if (o.actions) {
      log(`[${elapsed()}] running ${o.script}`);
      await o.actions({ page, browser: firefox.browser });
    }
    const deadline = Date.now() + o.seconds * 1000;
    while (Date.now() < deadline) {
      if (o.untilSelector && (await page.$(o.untilSelector))) break;
      log(`[${elapsed()}] profiling`);
      await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, deadline - Date.now()))));
    }
  } catch (e) {
    await firefox.finish({ windowStart: 0, windowEnd: 0 }).catch(() => {});
    throw e;
  }
  const windowEnd = Date.now();
  log(`[${elapsed()}] closing Firefox; it writes its profile`);
  return firefox.finish({ pageUrl: page.url(), windowStart, windowEnd });
}
