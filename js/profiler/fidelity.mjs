// Spec frame positions for the polyfill: at stop(), each frame's captured
// execution position becomes the definition position of its function. The
// same scans give RuntimeProfiler's results() its functions' definition
// lines (scanSourcesSync, sourceIndexHandle).
//
// Data path: the resource URLs of a stopped TraceSession -> each source
// fetched once per page (same-origin or CORS-readable; the document itself
// for inline scripts) -> scanned in the core (SourceIndex, which keeps the
// definitions, not the text) -> the core rewrites the session's frames
// (ResolveFrames). A source that cannot be fetched or scanned is remembered
// as such and its frames keep their positions; nothing here can lose a
// sample. All logic about JavaScript syntax lives in the core (src/).
import { guard } from '../core/core.mjs';
import { boundary, writeScratch } from '../core/boundary.mjs';
import { scriptUrlAsLoaded } from './muted.mjs';

const encoder = new TextEncoder();

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
  return scanText(url, text, html);
}

function scanText(url, text, html) {
  return guard((m) => {
    const urlBytes = encoder.encode(url).length;
    const { ptr, len } = writeScratch(url + text);
    const status = sourceIndex().add(ptr, urlBytes, len - urlBytes, html);
    return status === boundary().status.Ok ? 'Scanned' : m.statusName(status);
  });
}

function remember(url, promise) {
  sources.set(url, promise);
  promise.then((status) => sources.get(url) === promise && settled.set(url, status));
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
 * prefetched and done) cost nothing; each URL is read at most once.
 */
export function scanSourcesSync(urls) {
  for (const url of urls) {
    if (settled.has(url)) continue;
    const src = readSync(scriptUrlAsLoaded(url));
    const status = src ? scanText(url, src.text, src.html) : 'NotFetchable';
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
