// webprof/playwright: profile any page from Playwright, no change to the page.
//
// The page gets webprof through an init script that runs before any page
// script, in every frame, and hides itself behind one non-enumerable global
// (`__webprof__`); the Wasm core travels inside the init script as a data:
// URL, so nothing is fetched from the page's origin. Traces come back to
// Node as plain W3C dictionaries and are exported here, in Node, by the same
// core — the page does no export work while it is being measured.
//
// Samplers: Chromium's native Profiler runs only when the document is served
// with `Document-Policy: js-profiling`. With `native: true` we add that header
// to every document response through request interception, so any page gets
// the native sampler in Chromium; otherwise the polyfill runs. The result
// says which one ran. The polyfill samples at probe sites; on a page nobody
// built for it those are only task boundaries, so with `dense: true` (the
// default of the fixture and of `webprof record` when the polyfill runs)
// every script the page loads is passed through the sampling transform on
// its way in (js/transform/), which adds a probe site to every function
// entry and loop body without moving a line.
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as webprof from '../index.mjs';
import { summarize, formatSummary } from '../export/summary.mjs';
import { transformForSampling } from '../transform/index.mjs';
// The export registry, so tools can add a format the fixture and
// `webprof record` then write too (same module instance as makeResult's).
export { exportFormats, exportTrace, registerExportFormat } from '../export/export.mjs';
export { ready } from '../core/core.mjs';
export { record } from './cli.mjs';

const HIDDEN = '__webprof__';
const installed = new WeakMap(); // page/context -> install options

let agentCache = null;
async function agentSource() {
  if (!agentCache) {
    const [script, wasm] = await Promise.all([
      readFile(new URL('./webprof.js', import.meta.url), 'utf8'),
      readFile(new URL('./webprof-core.wasm', import.meta.url)),
    ]);
    agentCache = { script, wasmUrl: `data:application/wasm;base64,${wasm.toString('base64')}` };
  }
  return agentCache;
}

// autoStart profiles the top-level document from its first script on.
function initScript({ script, wasmUrl }, autoStart) {
  // `var webprof` of the classic build stays local to this function.
  return `(() => {
  if (globalThis.${HIDDEN}) return;
  Object.defineProperty(globalThis, 'webprofWasmUrl', { value: ${JSON.stringify(wasmUrl)}, configurable: true });
  ${script}
  Object.defineProperty(globalThis, '${HIDDEN}', { value: webprof, configurable: true });
  // The checks the transform inserts into rewritten scripts use these.
  Object.defineProperty(globalThis, '__wp$f', { value: webprof.__wp$f, configurable: true });
  Object.defineProperty(globalThis, '__wp$s', { value: webprof.__wp$s, configurable: true });
  webprof.ready.finally(() => { delete globalThis.webprofWasmUrl; });
  ${autoStart ? `if (globalThis.top === globalThis) (${startInPage.toString()})(webprof, ${JSON.stringify(autoStart)});` : ''}
})();`;
}

// Runs in the page: starts a Profiler and a probes window.
function startInPage(w, opts) {
  const session = { opts, startedAt: performance.now() };
  session.profiler = new w.Profiler({
    sampleInterval: opts.sampleInterval,
    maxBufferSize: opts.maxBufferSize,
    backend: opts.backend,
  });
  if (typeof w.start === 'function') w.start();
  w.__session = session;
  return session;
}

// Runs in the page: stops both and returns plain data.
async function stopInPage(w) {
  const session = w.__session;
  if (!session) throw new Error('webprof: no profile is running in this page');
  w.__session = null;
  let probes = null;
  if (typeof w.end === 'function') {
    w.end((aggregates, marks, traces) => {
      probes = { aggregates: [...aggregates], marks, traces };
    });
  }
  const trace = await session.profiler.stop();
  // Probe info objects are the page's: keep what survives structured cloning.
  return JSON.parse(
    JSON.stringify({
      trace,
      probes,
      backend: session.profiler.backend,
      sampleInterval: session.profiler.sampleInterval,
      startedAt: session.startedAt,
    }),
  );
}

/**
 * Makes webprof available in `target` (a Page or a BrowserContext) before any
 * page script runs. Idempotent.
 * @param {{native?: boolean, dense?: boolean, autoStart?: object}} [options]
 */
export async function install(target, options = {}) {
  if (installed.has(target)) return;
  installed.set(target, options);
  await target.addInitScript({ content: initScript(await agentSource(), options.autoStart) });
  if (options.native) await grantNativeProfiler(target);
  if (options.dense) await transformScripts(target);
}

/** Passes every script the page loads through the dense-sampling transform. */
export async function transformScripts(target) {
  await target.route('**/*', async (route) => {
    const request = route.request();
    if (request.resourceType() !== 'script') return route.fallback();
    const response = await route.fetch();
    const type = response.headers()['content-type'] || '';
    if (!response.ok() || !/javascript|ecmascript/.test(type)) return route.fulfill({ response });
    const source = await response.text();
    // A page's own copy of webprof (its marker functions) is never rewritten:
    // its probe sites would sample webprof itself.
    if (source.includes('__webprof$')) return route.fulfill({ response });
    // runtime: null — no import is added; the checks use the globals the
    // init script defines, so classic scripts and modules both work.
    const { code } = await transformForSampling(source, {
      runtime: null,
      file: request.url(),
    });
    await route.fulfill({ response, body: code });
  });
}

/** Serves every document with `Document-Policy: js-profiling` (Chromium's native sampler). */
export async function grantNativeProfiler(target) {
  await target.route('**/*', async (route) => {
    const request = route.request();
    if (request.resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const headers = { ...response.headers(), 'document-policy': 'js-profiling' };
    await route.fulfill({ response, headers });
  });
}

async function ensureAgent(page) {
  // A page that loaded before install() has no agent yet: add it now.
  const has = await page.evaluate((h) => !!globalThis[h], HIDDEN);
  if (!has) await page.evaluate(initScript(await agentSource(), null));
  await page.evaluate((h) => globalThis[h].ready, HIDDEN);
}

/** Starts profiling in `page`; pair with stopProfile(). */
export async function startProfile(page, options = {}) {
  await ensureAgent(page);
  await page.evaluate(
    ([h, start, o]) => new Function('return ' + start)()(globalThis[h], o),
    [HIDDEN, startInPage.toString(), profileOptions(options)],
  );
}

/** Stops the profile running in `page` (started by startProfile or autoStart). */
export async function stopProfile(page) {
  const data = await page.evaluate(
    ([h, stop]) => new Function('return ' + stop)()(globalThis[h]),
    [HIDDEN, stopInPage.toString()],
  );
  return makeResult(data);
}

/**
 * Profiles `page` while `actions()` runs.
 * const result = await profile(page, async () => { await page.click('#go'); }, { sampleInterval: 1 });
 */
export async function profile(page, actions, options = {}) {
  if (options.native || options.dense)
    await install(page, { native: !!options.native, dense: !!options.dense });
  await startProfile(page, options);
  let result;
  try {
    await actions();
  } finally {
    result = await stopProfile(page);
  }
  return result;
}

/** Turns the page's data into exported files, a summary and save(dir). */
export async function makeResult({ trace, probes, backend, sampleInterval, startedAt }) {
  await webprof.ready;
  const input = { profile: trace };
  if (probes) {
    input.aggregates = new Map(probes.aggregates);
    input.marks = probes.marks;
    input.traces = probes.traces;
  }
  // One file per export format of the registry (js/export/export.mjs).
  const files = {};
  for (const f of webprof.exportFormats()) files[f.fileName] = webprof.exportTrace(f.id, input);
  const summary = summarize(trace);
  const summaryText = formatSummary(summary, { backend });
  files['summary.txt'] = new TextEncoder().encode(summaryText).buffer;
  return {
    trace,
    probes: probes && { aggregates: input.aggregates, marks: probes.marks, traces: probes.traces },
    backend,
    sampleInterval,
    startedAt,
    files,
    summary,
    summaryText,
    /** Writes one file per export format and summary.txt into dir. */
    async save(dir) {
      await mkdir(dir, { recursive: true });
      await Promise.all(
        Object.entries(files).map(([name, buf]) => writeFile(join(dir, name), new Uint8Array(buf))),
      );
      return Object.keys(files).map((name) => join(dir, name));
    },
  };
}

/**
 * Extends a Playwright `test` with a `webprof` fixture. Profiling is on request:
 * `test.use({ webprofProfile: { sampleInterval: 1 } })` profiles every test of
 * the scope; `webprof.profile(actions)` profiles a block. Files are attached
 * to the test report.
 *   import { test as base } from '@playwright/test';
 *   const test = withWebprof(base);
 */
export function withWebprof(base) {
  return base.extend({
    webprofProfile: [null, { option: true }],
    webprof: [
      async ({ page, webprofProfile }, use, testInfo) => {
        const results = [];
        const attach = async (result, label) => {
          for (const [name, buf] of Object.entries(result.files)) {
            await testInfo.attach(`${label}${name}`, {
              body: Buffer.from(buf),
              contentType: contentType(name),
            });
          }
        };
        if (webprofProfile) {
          await install(page, {
            native: !!webprofProfile.native,
            dense: webprofProfile.dense ?? !webprofProfile.native,
            autoStart: profileOptions(webprofProfile),
          });
        }
        const stopWholeTest = async () => {
          const r = await stopProfile(page);
          results.push(r);
          await attach(r, 'webprof-test-');
          return r;
        };
        const api = {
          results,
          /** Stops the whole-test profile now (webprofProfile) and returns it. */
          stop: stopWholeTest,
          async profile(actions, options = {}) {
            const r = await profile(page, actions, options);
            results.push(r);
            await attach(r, `webprof-${results.length}-`);
            return r;
          },
        };
        await use(api);
        if (webprofProfile && !page.isClosed()) {
          const running = await page
            .evaluate((h) => !!(globalThis[h] && globalThis[h].__session), HIDDEN)
            .catch(() => false);
          if (running) await stopWholeTest();
        }
      },
      { auto: true },
    ],
  });
}

// The Profiler options of a profile started here or by autoStart, with the
// defaults both share.
function profileOptions(o) {
  return {
    sampleInterval: o.sampleInterval ?? 1,
    maxBufferSize: o.maxBufferSize ?? 1_000_000,
    backend: o.backend ?? 'auto',
  };
}

// The MIME type the format registry gives the file, text for the summary.
function contentType(name) {
  if (name === 'summary.txt') return 'text/plain';
  const f = webprof.exportFormats().find((x) => x.fileName === name);
  return f ? f.mimeType : 'application/octet-stream';
}
