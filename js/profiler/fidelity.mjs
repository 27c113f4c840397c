// Spec frame positions for the polyfill: at stop(), each frame's captured
// execution position becomes the definition position of its function. The
// same scans give RuntimeProfiler's results() its functions' definition
// lines (frameDefinitionsSync).
//
// Data path: the resource URLs of a stopped TraceSession -> each source
// fetched once per page (same-origin or CORS-readable; the document itself
// for inline scripts) -> scanned into the index of scans in the tools module
// (webprof-tools.wasm, which keeps the definitions, not the text) -> the
// page core's frame positions looked up there -> each frame's definition
// taken into the page's core (src/source/frame_definitions.h), which
// rewrites the session's frames (ResolveFrames). A source that cannot be
// fetched or scanned is remembered as such and its frames keep their
// positions; nothing here can lose a sample. Without the tools module (it
// failed to load) a source is not remembered: a later call tries again; a
// tools module that trapped is replaced by a fresh one, with an empty index,
// and the sources are read again. All logic about JavaScript syntax lives in
// the core (src/).
import { guard } from '../core/core.mjs';
import { boundary, check } from '../core/boundary.mjs';
import { toolsLoaded, toolsSeparate, withTools, withToolsNow, withToolsSync } from '../core/tools.mjs';
import { TIMED_OUT, settledWithin } from '../core/platform.mjs';
import { scriptUrlAsLoaded } from './muted.mjs';

// A source's status while the tools module cannot be had (not remembered).
const NOT_LOADED = 'NotLoaded';
const SCANNED = 'Scanned';

// Per page (per realm): URL -> Promise<status name>, and URL -> status name
// once that scan has finished (what a synchronous caller can use). Bounded:
// past MAX_SCRIPTS the oldest entries leave the caches and the index.
const MAX_SCRIPTS = 512;
const sources = new Map();
const settled = new Map();
let index = null; // the SourceIndex, in tools module `indexModule`
let indexModule = null;
let definitions = null; // the page core's FrameDefinitions, refilled per use

// Scans kept in a tools module that trapped went with it (js/core/tools.mjs
// loads a fresh one): forget them, so the sources are read again. `t`: the
// tools module in use now.
function dropStale(t = toolsSeparate() ? toolsLoaded() : indexModule) {
  if (indexModule === null || indexModule === t) return;
  sources.clear();
  settled.clear();
  index = indexModule = null;
}

// The index of scans in tools module `t`.
function indexIn(t) {
  dropStale(t);
  if (index === null) {
    index = new t.SourceIndex();
    indexModule = t;
  }
  return index;
}

/** Forgets every cached source scan (e.g. after a hot reload). */
export function clearSourceCache() {
  dropStale();
  sources.clear();
  settled.clear();
  const old = index;
  index = indexModule = null;
  if (old) withToolsNow(() => old.delete());
}

function fetchable(url) {
  return /^https?:/.test(url) || (/^blob:/.test(url) && typeof fetch === 'function');
}

// An HTML response is a document whose inline scripts are scanned.
const isHtml = (contentType) => /html/i.test(contentType || '');

async function fetchAndScan(url, fetchImpl) {
  if (!fetchable(url) || typeof fetchImpl !== 'function') return 'NotFetchable';
  let text, html;
  try {
    // JavaScriptCore's stack URLs have no query: fetch the URL the page loaded.
    const res = await fetchImpl(scriptUrlAsLoaded(url), { credentials: 'same-origin' });
    // An opaque or failed response is a script we may not read.
    if (!res.ok || res.type === 'opaque') return 'NotFetchable';
    html = isHtml(res.headers.get('content-type'));
    text = await res.text();
  } catch {
    return 'NotFetchable';
  }
  try {
    return await withTools((t) => keep(t, url, text, html));
  } catch {
    return NOT_LOADED; // the tools module failed to load, or trapped
  }
}

// The scan of `text` into tools module `t`'s index as the script at `url`;
// its status name.
function keep(t, url, text, html) {
  const status = indexIn(t).add(url, text, html);
  return status === boundary().status.Ok ? SCANNED : t.statusName(status);
}

function remember(url, promise) {
  sources.set(url, promise);
  promise.then((status) => {
    if (sources.get(url) !== promise) return;
    if (status === NOT_LOADED) sources.delete(url);
    else settled.set(url, status);
  });
  if (sources.size > MAX_SCRIPTS) {
    const oldest = sources.keys().next().value;
    sources.delete(oldest);
    settled.delete(oldest);
    dropStale();
    if (index) withToolsNow(() => index.remove(oldest));
  }
  return promise;
}

function scanOnce(url, fetchImpl) {
  dropStale();
  return sources.get(url) || remember(url, fetchAndScan(url, fetchImpl));
}

/** Starts fetching and scanning `urls` in the background (each once). */
export function prefetchSources(urls, options = {}) {
  const fetchImpl = options.fetch || globalThis.fetch;
  for (const url of urls) scanOnce(url, fetchImpl);
}

// A source read synchronously: a blocking XMLHttpRequest (windows and
// workers; same-origin or CORS-readable only, like fetch) or, in Node, the
// file behind a file: URL. Null when it cannot be read.
function readSync(url) {
  if (/^file:/.test(url) && typeof process === 'object' && process.getBuiltinModule) {
    try {
      const fs = process.getBuiltinModule('fs');
      return { text: fs.readFileSync(new URL(url), 'utf8'), html: false };
    } catch {
      return null;
    }
  }
  if (!fetchable(url) || typeof XMLHttpRequest !== 'function') return null;
  try {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url, false);
    xhr.send();
    if (xhr.status !== 200) return null;
    return { text: xhr.responseText, html: isHtml(xhr.getResponseHeader('content-type')) };
  } catch {
    return null; // network error, CORS refusal
  }
}

/**
 * Each frame's definition for RuntimeProfiler's results(), which cannot
 * wait: the handle of the page core's FrameDefinitions taken for `trace`
 * (a TraceSession), or 0 without the tools module. Sources not scanned yet
 * (nor prefetched and done) are read synchronously, each URL at most once.
 * The tools module is loaded by a blocking read if it has not arrived
 * (js/core/tools.mjs toolsSync); without it (unreadable, refused, trapped)
 * nothing is read or remembered here, and the scripts' functions have no
 * definition lines this time.
 */
export function frameDefinitionsSync(trace) {
  dropStale();
  const urls = trace.resources();
  // No script that is or may be scanned: nothing to look up, no tools module needed.
  if (urls.every((u) => settled.has(u) && settled.get(u) !== SCANNED)) return 0;
  try {
    const records = withToolsSync((t) => {
      dropStale(t);
      for (const url of urls) {
        if (settled.has(url)) continue;
        const src = readSync(scriptUrlAsLoaded(url));
        const status = src ? keep(t, url, src.text, src.html) : 'NotFetchable';
        remember(url, Promise.resolve(status));
        settled.set(url, status);
      }
      return lookUp(t, trace);
    });
    return records ? take(trace, records) : 0;
  } catch {
    return 0; // the tools module trapped (dropped; the next call loads a fresh one)
  }
}

// Each frame's definition for `trace` from tools module `t`'s scans, as records.
function lookUp(t, trace) {
  const positions = guard(() => frameDefinitions().positions(trace.coreHandle()));
  const { status, records } = indexIn(t).define(positions);
  check(status, 'frame positions');
  return records;
}

function frameDefinitions() {
  if (!definitions) definitions = guard((m) => new m.FrameDefinitions());
  return definitions;
}

// The definitions' records into the page's core for `trace`; the
// FrameDefinitions' handle.
function take(trace, records) {
  const d = frameDefinitions();
  return guard(() => {
    check(d.take(trace.coreHandle(), records), 'frame definitions');
    return d.handle();
  });
}

/**
 * Rewrites the frames of a stopped TraceSession to function definitions.
 * Resolves with {scripts: {url: status}, framesIn, framesOut, framesResolved};
 * never rejects for a source problem (those scripts keep their positions).
 * Given `waitMs`, sources not scanned by then are passed over ('TimedOut';
 * the next trace fetches them again): the rewrite happens within this call,
 * never after it resolved.
 * @param {import('./trace.mjs').TraceSession} trace
 * @param {{fetch?: typeof fetch, waitMs?: number}} [options]
 */
export async function resolveFrameDefinitions(trace, options = {}) {
  const fetchImpl = options.fetch || globalThis.fetch;
  const urls = trace.resources();
  const scans = urls.map((u) => scanOnce(u, fetchImpl));
  const statuses = await settledWithin(scans, options.waitMs);
  // A scan passed over is forgotten: the next trace fetches its source again
  // rather than wait on the same stalled one.
  urls.forEach((u, i) => statuses[i] === TIMED_OUT && sources.get(u) === scans[i] && sources.delete(u));
  const scripts = {};
  urls.forEach((u, i) => (scripts[u] = statuses[i]));
  const handle = trace.coreHandle(); // throws if disposed while sources loaded
  // The lookup and the rewrite in one go: the trace cannot change between.
  // With no source scanned (none could be read, or the tools module failed
  // to load) no frame has a definition and the frames keep their positions.
  const d = frameDefinitions();
  const scanned = statuses.includes(SCANNED) && (!toolsSeparate() || toolsLoaded() !== null);
  const records = scanned ? withToolsNow((t) => lookUp(t, trace)) : null;
  if (records) take(trace, records);
  else guard(() => d.clear());
  const status = guard(() => d.resolve(handle));
  if (status !== boundary().status.Ok) {
    // A table cap while rebuilding: the trace is unchanged (core contract).
    return { scripts, error: guard((m) => m.statusName(status)), framesResolved: 0 };
  }
  return {
    scripts,
    framesIn: d.framesIn(),
    framesOut: d.framesOut(),
    framesResolved: d.framesResolved(),
  };
}
