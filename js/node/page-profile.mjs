// Profiling a Playwright page from Node: webprof's agent installed in the
// page (or its context) before any page script, the route that rewrites
// what it loads, and a profile started and stopped in the page, its
// workers and the documents it navigates to (js/node/documents.mjs). The
// page's data becomes a result in js/node/result.mjs.
import { DOCUMENT_BINDING, HIDDEN, agentSource, agentScript, startInPage, stopInPage } from './agent.mjs';
import { newRewriteState, routePageLoads, unmarkedUrl } from './rewrite.mjs';
import { NATIVE_FLOOR_MS, startDevToolsSampler } from './devtools-sampler.mjs';
import {
  armNextDocuments,
  beforeNavigation,
  disarm,
  forgetLeftDocuments,
  isArmed,
  joinDocuments,
  onDocumentMessage,
  takeLeftDocuments,
} from './documents.mjs';
import { makeResult } from './result.mjs';

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
    if (await profilingIn(w)) continue;
    await callIn(w, startInPage, o).catch(() => {});
  }
}

/** Whether a profile runs in `target`: true, false, or null when it cannot be asked (closed, crashed). */
export const profilingIn = (target) =>
  target.evaluate((h) => !!(globalThis[h] && globalThis[h].__session), HIDDEN).catch(() => null);
/** An error's first line (Playwright's carry the page's stack after it). */
export const firstLine = (e) => String((e && e.message) || e).split('\n')[0];

// Chromium's native Profiler runs only in a document served with
// `Document-Policy: js-profiling`: whether it may is settled when the
// document loads, so asking later cannot be honoured silently.
function nativeRefused(e) {
  const why = firstLine(e);
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
  const url = page.url();
  let data = null;
  // Why this document's profile did not arrive: its stop() failed, or the
  // page is gone (closed, crashed) with the samples it held.
  let lost = null;
  if ((await profilingIn(page)) !== false) {
    try {
      data = await callIn(page, stopInPage);
    } catch (e) {
      lost = `the profile in ${url} could not be stopped (${firstLine(e)}): its samples are lost`;
    }
  }
  const workerData = [];
  for (const d of before) workerData.push(...d.workers);
  for (const w of await agentWorkers(page)) {
    if (!(await profilingIn(w))) continue;
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
    if (why) throw new Error(`webprof: the profile could not start in ${url}: ${why}`);
    throw new Error(`webprof: ${lost || `no profile is running in ${url}`}`);
  }
  // What was recorded is still written; what was lost is said.
  const problems = kept.filter((d) => d.problem).map((d) => d.problem);
  if (lost) problems.push(lost);
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
  return runThenStop(actions, () => stopProfile(page));
}

// actions(), then stop() for the result — also when actions() throws, and
// then the caller gets the action's error: a stop that fails after it
// (the action closed or crashed the page: "could not be stopped") is a
// consequence, and thrown from a `finally` it replaced the cause.
async function runThenStop(actions, stop) {
  try {
    await actions();
  } catch (e) {
    await stop().catch(() => {});
    throw e;
  }
  return stop();
}

async function profileWithDevTools(page, actions, options) {
  const errors = watchPageErrors(page);
  const sampler = await startDevToolsSampler(page, options.sampleInterval);
  const data = await runThenStop(actions, () => sampler.stop());
  return makeResult(data, { pageErrors: [...errors] });
}

// The Profiler options of a profile started here or by autoStart, with the
// defaults both share.
// {native: true} asks for the native sampler: refused clearly where the
// document does not allow it (nativeRefused), never the polyfill silently.
export function profileOptions(o) {
  return {
    sampleInterval: o.sampleInterval ?? 1,
    maxBufferSize: o.maxBufferSize ?? 1_000_000,
    backend: o.backend ?? (o.native ? 'native' : 'auto'),
  };
}
