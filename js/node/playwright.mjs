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
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as webprof from '../index.mjs';
import { summarize, formatSummary, samplerName, sparseDiagnostic } from '../export/summary.mjs';
// The export registry, so tools can add a format the fixture and
// `webprof record` then write too (same module instance as makeResult's).
export { exportFormats, exportTrace, registerExportFormat } from '../export/export.mjs';
export { ready } from '../core/core.mjs';
export { record } from './cli.mjs';
// Firefox's own (Gecko) sampler: a profiled Firefox and the importer of its profile.
export { launchProfiledFirefox } from './firefox.mjs';
export { importGeckoProfile } from '../import/gecko.mjs';
import { DOCUMENT_BINDING, HIDDEN, agentSource, agentScript, startInPage, stopInPage } from './agent.mjs';
import { newRewriteState, routePageLoads, unmarkedUrl } from './rewrite.mjs';
import { NATIVE_FLOOR_MS, startDevToolsSampler } from './devtools-sampler.mjs';
import { withSharedMemory } from './chromium.mjs';
// For a browser launched by the user: the switch that lets the polyfill's ticker run.
export { withSharedMemory, SHARED_MEMORY_ARG } from './chromium.mjs';
import {
  armNextDocuments,
  beforeNavigation,
  disarm,
  forgetLeftDocuments,
  hasLeftDocuments,
  isArmed,
  joinDocuments,
  onDocumentMessage,
  takeLeftDocuments,
} from './documents.mjs';

const installed = new WeakMap(); // page/context -> rewrite state

/**
 * Makes webprof available in `target` (a Page or a BrowserContext) before any
 * page script runs, and routes what the page loads (js/node/rewrite.mjs).
 * A second call adds options (native, dense) to the first: the route reads
 * them per request.
 * @param {{native?: boolean, dense?: boolean, autoStart?: object}} [options]
 */
export async function install(target, options = {}) {
  const known = installed.get(target);
  if (known) {
    known.native ||= !!options.native;
    known.dense ||= !!options.dense;
    return known;
  }
  const agent = await agentSource();
  const state = newRewriteState({
    ...options,
    // A worker that starts while startProfile()'s profile runs joins it.
    workerAgent: async () => agentScript(agent, { autoStart: state.profiling || options.autoStart }),
  });
  state.profiling = null; // the running profile's options (startProfile to stopProfile)
  // A navigation while a profile runs: the route holds the request until the
  // leaving document has handed over its profile (js/node/documents.mjs).
  state.beforeNavigation = (page) =>
    options.autoStart || isArmed(page)
      ? beforeNavigation(page, (t) => callIn(t, stopInPage), agentWorkers)
      : undefined;
  installed.set(target, state);
  await target.exposeBinding(DOCUMENT_BINDING, ({ page }, kind, text) => onDocumentMessage(page, kind, text));
  await target.addInitScript({
    content: agentScript(agent, { autoStart: options.autoStart, markWorkers: true }),
  });
  await routePageLoads(target, state);
  return state;
}

/** Passes every script and document the page loads through the dense-sampling transform. */
export async function transformScripts(target) {
  await install(target, { dense: true });
}

/** Serves every document with `Document-Policy: js-profiling` (Chromium's native sampler). */
export async function grantNativeProfiler(target) {
  await install(target, { native: true });
}

function stateOf(page) {
  return installed.get(page) || installed.get(page.context()) || null;
}

async function ensureAgent(page) {
  // A page that loaded before install() has no agent yet: add it now.
  const has = await page.evaluate((h) => !!globalThis[h], HIDDEN);
  if (!has) await page.evaluate(agentScript(await agentSource(), { markWorkers: !!stateOf(page) }));
  await page.evaluate((h) => globalThis[h].ready, HIDDEN);
}

// The page's dedicated workers that carry the agent (rewritten by the route).
async function agentWorkers(page) {
  const out = [];
  for (const w of page.workers()) {
    const has = await w.evaluate((h) => !!globalThis[h], HIDDEN).catch(() => false);
    if (has) out.push(w);
  }
  return out;
}

const callIn = (target, fn, arg) =>
  target.evaluate(
    ([h, src, o]) => new Function('return ' + src)()(globalThis[h], o),
    [HIDDEN, fn.toString(), arg],
  );

/**
 * Starts profiling in `page` and its workers that carry the agent; pair with
 * stopProfile(). Documents the page navigates to meanwhile are profiled
 * from their first script, and the result joins them (js/node/documents.mjs).
 */
export async function startProfile(page, options = {}) {
  // The route and the agent's init script reach the next documents.
  if (!stateOf(page)) await install(page, {});
  await ensureAgent(page);
  const o = profileOptions(options);
  forgetLeftDocuments(page);
  // The blank page a new tab starts on runs none of the page's code and
  // cannot run the native sampler: the profile starts with the next document.
  const blank = o.backend === 'native' && page.url() === 'about:blank';
  if (!blank) {
    try {
      await callIn(page, startInPage, o);
    } catch (e) {
      throw o.backend === 'native' ? nativeRefused(e) : e;
    }
  }
  await armNextDocuments(page, o);
  const state = stateOf(page);
  if (state) state.profiling = o;
  for (const w of await agentWorkers(page)) {
    // One that started since has begun on its own (its agent's autoStart).
    if (await isProfiling(w)) continue;
    await callIn(w, startInPage, o).catch(() => {});
  }
}

const isProfiling = (w) => w.evaluate((h) => !!globalThis[h].__session, HIDDEN).catch(() => false);

// Chromium's native Profiler runs only in a document served with
// `Document-Policy: js-profiling`: whether it may is settled when the
// document loads, so asking later cannot be honoured silently.
function nativeRefused(e) {
  const why = String((e && e.message) || e).split('\n')[0];
  return new Error(
    `webprof: {native: true} asks for Chromium's native Profiler, which this document does not allow (${why}). ` +
      `The sampler is chosen when a document loads: webprof serves documents with Document-Policy: js-profiling ` +
      `from install(page, {native: true}), grantNativeProfiler(page), profile(…, {native: true}) or the fixture's ` +
      `webprofProfile: {native: true} on — so ask before page.goto(), or navigate inside profile().`,
  );
}

/**
 * Stops the profile running in `page` (started by startProfile or autoStart),
 * and in its workers: their results are in `result.workers`. When the page
 * navigated meanwhile, the trace spans every document it showed (one time
 * base: ms since the first one's time origin) and `result.documents` lists them.
 */
export async function stopProfile(page) {
  const state = stateOf(page);
  if (state) state.profiling = null;
  await disarm(page);
  const before = takeLeftDocuments(page);
  let data = null;
  let lastError = null;
  try {
    data = await callIn(page, stopInPage);
  } catch (e) {
    lastError = e;
  }
  const workerData = [];
  for (const d of before) workerData.push(...d.workers);
  for (const w of await agentWorkers(page)) {
    if (!(await isProfiling(w))) continue;
    const wd = await callIn(w, stopInPage).catch(() => null);
    if (wd) workerData.push({ data: wd, url: unmarkedUrl(w.url()) });
  }
  // A blank page left with nothing sampled in it is no document of the page's.
  const kept = before.filter((d) => !d.data || !isEmptyBlank(d.data));
  const docs = [...kept.filter((d) => d.data).map((d) => d.data), ...(data ? [data] : [])];
  if (!docs.length) {
    const why = await page
      .evaluate((h) => globalThis[h] && globalThis[h].__startError, HIDDEN)
      .catch(() => null);
    throw why ? new Error(`webprof: the profile could not start in ${page.url()}: ${why}`) : lastError;
  }
  const problems = kept.filter((d) => d.problem).map((d) => d.problem);
  const joined = joinDocuments(docs);
  const workers = [];
  for (const w of workerData) workers.push({ ...(await makeResult(w.data)), url: w.url });
  return makeResult(joined.data, {
    workers,
    unsampled: state ? [...state.unsampled] : [],
    pageErrors: [...(pageErrors.get(page) || [])],
    documents: joined.documents,
    problems,
  });
}

const isEmptyBlank = (d) => d.url === 'about:blank' && !d.trace.samples.some((s) => s.stackId !== undefined);

// Errors the page threw, from the moment webprof watched it.
const pageErrors = new WeakMap();
/** Collects the page's uncaught errors; results carry the ones seen so far. */
export function watchPageErrors(page) {
  if (pageErrors.has(page)) return pageErrors.get(page);
  const list = [];
  pageErrors.set(page, list);
  page.on('pageerror', (e) => list.push({ name: e.name, message: e.message, stack: e.stack || '' }));
  return list;
}

/**
 * Profiles `page` while `actions()` runs.
 * const result = await profile(page, async () => { await page.click('#go'); }, { sampleInterval: 1 });
 */
export async function profile(page, actions, options = {}) {
  // Native below its 10 ms floor: Chromium's DevTools sampler (js/node/devtools-sampler.mjs).
  if (options.native && options.sampleInterval < NATIVE_FLOOR_MS)
    return profileWithDevTools(page, actions, options);
  if (options.native || options.dense)
    await install(page, { native: !!options.native, dense: !!options.dense });
  watchPageErrors(page);
  await startProfile(page, options);
  let result;
  try {
    await actions();
  } finally {
    result = await stopProfile(page);
  }
  return result;
}

async function profileWithDevTools(page, actions, options) {
  const errors = watchPageErrors(page);
  const sampler = await startDevToolsSampler(page, options.sampleInterval);
  let data;
  try {
    await actions();
  } finally {
    data = await sampler.stop();
  }
  return makeResult(data, { pageErrors: [...errors] });
}

/**
 * Turns the page's data into exported files, a summary and save(dir).
 * extra: workers (their results), unsampled (what the route left as it
 * was, and why), pageErrors (what the page threw); all end up in the
 * summary text too.
 */
export async function makeResult(
  { trace, probes, backend, denseMode = null, sampleInterval, startedAt },
  { workers = [], unsampled = [], pageErrors = [], documents = [], problems = [] } = {},
) {
  await webprof.ready;
  const input = { profile: trace };
  if (probes) {
    input.aggregates = new Map(probes.aggregates);
    input.marks = probes.marks;
    input.traces = probes.traces;
  }
  // One file per export format of the registry (js/export/export.mjs).
  const files = {};
  // The trace says which sampler ran, and how often, in its thread's name.
  const every = typeof sampleInterval === 'number' ? `, ${sampleInterval} ms` : '';
  const mode = denseMode ? `, ${denseMode} mode` : '';
  const naming = { threadName: `main (${samplerName(backend)} sampler${mode}${every})` };
  for (const f of webprof.exportFormats()) files[f.fileName] = webprof.exportTrace(f.id, input, naming);
  const summary = summarize(trace);
  let summaryText = formatSummary(summary, { backend, denseMode, sampleInterval });
  if (documents.length) summaryText += documentsText(documents, backend);
  if (problems.length)
    summaryText += `\nnot collected (${problems.length}):\n${problems.map((p) => `  ${p}\n`).join('')}`;
  workers.forEach((w, i) => {
    summaryText += `\nworker ${i + 1} (${w.url}, files in worker-${i + 1}/):\n${w.summaryText}`;
  });
  if (unsampled.length) {
    summaryText += `\nnot rewritten for dense sampling (${unsampled.length}):\n`;
    for (const u of unsampled) summaryText += `  ${u.url}: ${u.reason}\n`;
  }
  if (pageErrors.length) {
    summaryText += `\npage errors (${pageErrors.length}):\n`;
    for (const e of pageErrors) summaryText += `  ${e.name}: ${e.message}\n`;
  }
  files['summary.txt'] = new TextEncoder().encode(summaryText).buffer;
  return {
    trace,
    probes: probes && { aggregates: input.aggregates, marks: probes.marks, traces: probes.traces },
    backend,
    denseMode,
    sampleInterval,
    startedAt,
    files,
    summary,
    summaryText,
    workers,
    unsampled,
    pageErrors,
    /** The documents the profile went through when the page navigated ([] for one): url, timeOrigin, offset (ms), samples, backend, sampleInterval. */
    documents,
    problems,
    /** Why the samples have (almost) no JS stack and what to do, or null (also in summaryText). */
    diagnostic: sparseDiagnostic(summary, backend),
    /** Writes one file per export format and summary.txt into dir (workers: dir/worker-N/). */
    async save(dir) {
      await mkdir(dir, { recursive: true });
      await Promise.all(
        Object.entries(files).map(([name, buf]) => writeFile(join(dir, name), new Uint8Array(buf))),
      );
      const written = Object.keys(files).map((name) => join(dir, name));
      for (let i = 0; i < workers.length; i++)
        written.push(...(await workers[i].save(join(dir, `worker-${i + 1}`))));
      return written;
    },
  };
}

// The documents a navigating profile went through, on the trace's one time base.
function documentsText(documents, backend) {
  let text = `\ndocuments (${documents.length}), one time base: ms from the first one's time origin\n`;
  for (const d of documents) {
    const other = d.backend !== backend ? `, ${samplerName(d.backend)} sampler` : '';
    text += `  from ${d.offset.toFixed(1).padStart(8)} ms  ${d.samples} samples${other}  ${d.url}\n`;
  }
  return text;
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
    webprofDense: [true, { option: true }],
    // Chromium is started with shared memory allowed (js/node/chromium.mjs),
    // so the polyfill's checks run in ticker mode: time-faithful shares.
    // Per worker process, like the browser; `webprofTicker: false` opts out.
    webprofTicker: [true, { option: true, scope: 'worker' }],
    launchOptions: [
      async ({ launchOptions, browserName, webprofTicker }, use) => {
        if (!webprofTicker || browserName !== 'chromium') return use(launchOptions);
        await use({ ...launchOptions, args: withSharedMemory(launchOptions.args) });
      },
      { scope: 'worker' },
    ],
    webprof: [
      async ({ page, webprofProfile, webprofDense }, use, testInfo) => {
        const results = [];
        const attach = async (result, label) => {
          for (const [name, buf] of Object.entries(result.files)) {
            await testInfo.attach(`${label}${name}`, {
              body: Buffer.from(buf),
              contentType: contentType(name),
            });
          }
          // Said where the test's reader looks: the report and the console.
          if (result.diagnostic) {
            testInfo.annotations.push({ type: 'webprof', description: result.diagnostic });
            console.warn(`webprof: ${result.diagnostic}`);
          }
        };
        // Scripts are rewritten from the first page load on, so a profile
        // taken later (webprof.profile) samples inside synchronous code.
        const native = !!(webprofProfile && webprofProfile.native);
        const dense =
          webprofProfile && webprofProfile.dense !== undefined
            ? !!webprofProfile.dense
            : webprofDense && !native;
        if (webprofProfile || dense)
          await install(page, {
            native,
            dense,
            // 'auto' (not a forced 'native'): the first blank document has no
            // policy and the init script must not throw into it; served
            // documents carry the policy, and 'auto' takes the native sampler there.
            autoStart: webprofProfile && profileOptions({ ...webprofProfile, native: false }),
          });
        watchPageErrors(page);
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
          if (running || hasLeftDocuments(page)) await stopWholeTest();
        }
      },
      { auto: true },
    ],
  });
}

// The Profiler options of a profile started here or by autoStart, with the
// defaults both share.
// {native: true} asks for the native sampler: refused clearly where the
// document does not allow it (nativeRefused), never the polyfill silently.
function profileOptions(o) {
  return {
    sampleInterval: o.sampleInterval ?? 1,
    maxBufferSize: o.maxBufferSize ?? 1_000_000,
    backend: o.backend ?? (o.native ? 'native' : 'auto'),
  };
}

// The MIME type the format registry gives the file, text for the summary.
function contentType(name) {
  if (name === 'summary.txt') return 'text/plain';
  const f = webprof.exportFormats().find((x) => x.fileName === name);
  return f ? f.mimeType : 'application/octet-stream';
}
