// Spec frame positions for the polyfill: at stop(), each frame's captured
// execution position becomes the definition position of its function. The
// same scans give RuntimeProfiler's results() its functions' definition
// lines (scanSourcesSync, sourceIndexHandle).
//
// Data path: the resource URLs of a stopped TraceSession -> each source
// fetched once per page (same-origin or CORS-readable; the document itself
// for inline scripts) -> scanned by the tools module (webprof-tools.wasm:
// text -> definition records, src/source/scan_records.h) -> the records
// taken into the page core's SourceIndex (which keeps the definitions, not
// the text) -> the core rewrites the session's frames (ResolveFrames). A
// source that cannot be fetched or scanned is remembered as such and its
// frames keep their positions; nothing here can lose a sample. Without the
// tools module (it failed to load) a source is not remembered: a later call
// tries again. All logic about JavaScript syntax lives in the core (src/).
import { guard } from '../core/core.mjs';
import { boundary, writeScratch } from '../core/boundary.mjs';
import { withTools, withToolsSync } from '../core/tools.mjs';
import { scriptUrlAsLoaded } from './muted.mjs';

// A source's status while the tools module cannot be had (not remembered).
const NOT_LOADED = 'NotLoaded';

// Per page (per realm): URL -> Promise<status name>, and URL -> status name
// once that scan has finished (what a synchronous caller can use). Bounded:
// past MAX_SCRIPTS the oldest entries leave the caches and the core index.
const MAX_SCRIPTS = 512;
let index = null;
const sources = new Map();
const settled = new Map();

function sourceIndex() {
  if (!index) index = guard((m) => new m.SourceIndex());
  return index;
}

/** Forgets every cached source scan (e.g. after a hot reload). */
export function clearSourceCache() {
  sources.clear();
  settled.clear();
  if (index) {
    index.delete();
    index = null;
  }
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
  let scanned;
  try {
    scanned = await withTools((t) => scanIn(t, text, html));
  } catch {
    return NOT_LOADED; // the tools module failed to load, or trapped
  }
  return keep(url, scanned);
}

// The scan of `text` by tools module `t`: {status, records}.
function scanIn(t, text, html) {
  const { ptr, len } = writeScratch(text, t);
  return t.scanSource(ptr, len, html);
}

// A scan's records into the page core's index; its status name.
function keep(url, { status, records }) {
  return guard((m) => {
    const ok = boundary().status.Ok;
    const kept = status === ok ? sourceIndex().add(url, records) : status;
    return kept === ok ? 'Scanned' : m.statusName(kept);
  });
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
    if (index) index.remove(oldest);
  }
  return promise;
}

function scanOnce(url, fetchImpl) {
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
 * Makes sure each of `urls` has a finished scan (or is known unreadable),
 * reading the missing ones synchronously: for callers that cannot wait,
 * such as RuntimeProfiler's results(). Sources already scanned (or
 * prefetched and done) cost nothing; each URL is read at most once. The
 * scanner is the tools module, loaded by a blocking read if it has not
 * arrived (js/core/tools.mjs toolsSync); without it (unreadable, refused,
 * trapped) nothing is read or remembered here, and the scripts' functions
 * have no definition lines this time.
 */
export function scanSourcesSync(urls) {
  for (const url of urls) {
    if (settled.has(url)) continue;
    let scanned;
    try {
      scanned = withToolsSync((t) => {
        const src = readSync(scriptUrlAsLoaded(url));
        return src ? scanIn(t, src.text, src.html) : 'NotFetchable';
      });
    } catch {
      return; // the tools module trapped (dropped; the next call loads it again)
    }
    if (scanned === null) return;
    const status = typeof scanned === 'string' ? scanned : keep(url, scanned);
    remember(url, Promise.resolve(status));
    settled.set(url, status);
  }
}

/** The core SourceIndex's handle, for bindings that read the scans. */
export function sourceIndexHandle() {
  return sourceIndex().handle();
}

/**
 * Rewrites the frames of a stopped TraceSession to function definitions.
 * Resolves with {scripts: {url: status}, framesIn, framesOut, framesResolved};
 * never rejects for a source problem (those scripts keep their positions).
 * @param {import('./trace.mjs').TraceSession} trace
 * @param {{fetch?: typeof fetch}} [options]
 */
export async function resolveFrameDefinitions(trace, options = {}) {
  const fetchImpl = options.fetch || globalThis.fetch;
  const urls = trace.resources();
  const statuses = await Promise.all(urls.map((u) => scanOnce(u, fetchImpl)));
  const scripts = {};
  urls.forEach((u, i) => (scripts[u] = statuses[i]));
  const idx = sourceIndex();
  const handle = trace.coreHandle(); // throws if disposed while sources loaded
  const status = guard(() => idx.resolve(handle));
  if (status !== boundary().status.Ok) {
    // A table cap while rebuilding: the trace is unchanged (core contract).
    return { scripts, error: guard((m) => m.statusName(status)), framesResolved: 0 };
  }
  return {
    scripts,
    framesIn: idx.framesIn(),
    framesOut: idx.framesOut(),
    framesResolved: idx.framesResolved(),
  };
}
