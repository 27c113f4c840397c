// Spec frame positions for the polyfill: at stop(), each frame's captured
// execution position becomes the definition position of its function.
//
// Data path: the resource URLs of a stopped TraceSession -> each source
// fetched once per page (same-origin or CORS-readable; the document itself
// for inline scripts) -> scanned in the core (SourceIndex, which keeps the
// definitions, not the text) -> the core rewrites the session's frames
// (ResolveFrames). A source that cannot be fetched or scanned is remembered
// as such and its frames keep their positions; nothing here can lose a
// sample. All logic about JavaScript syntax lives in the core (src/).
import { guard, writeScratch } from './core.mjs';

const encoder = new TextEncoder();

// Per page (per realm): URL -> Promise<status name>. Bounded: past
// MAX_SCRIPTS the oldest entries leave the cache and the core index.
const MAX_SCRIPTS = 512;
let index = null;
const sources = new Map();

function sourceIndex() {
  if (!index) index = guard((m) => new m.SourceIndex());
  return index;
}

/** Forgets every cached source scan (e.g. after a hot reload). */
export function clearSourceCache() {
  sources.clear();
  if (index) {
    index.delete();
    index = null;
  }
}

function fetchable(url) {
  return /^https?:/.test(url) || (/^blob:/.test(url) && typeof fetch === 'function');
}

async function fetchAndScan(url, fetchImpl) {
  if (!fetchable(url) || typeof fetchImpl !== 'function') return 'NotFetchable';
  let text, html;
  try {
    const res = await fetchImpl(url, { credentials: 'same-origin' });
    // An opaque or failed response is a script we may not read.
    if (!res.ok || res.type === 'opaque') return 'NotFetchable';
    html = /html/i.test(res.headers.get('content-type') || '');
    text = await res.text();
  } catch {
    return 'NotFetchable';
  }
  return guard((m) => {
    const urlBytes = encoder.encode(url).length;
    const { ptr, len } = writeScratch(url + text);
    const status = sourceIndex().add(ptr, urlBytes, len - urlBytes, html);
    return status === 0 ? 'Scanned' : m.statusName(status);
  });
}

function scanOnce(url, fetchImpl) {
  let p = sources.get(url);
  if (!p) {
    p = fetchAndScan(url, fetchImpl);
    sources.set(url, p);
    if (sources.size > MAX_SCRIPTS) {
      const oldest = sources.keys().next().value;
      sources.delete(oldest);
      if (index) index.remove(oldest);
    }
  }
  return p;
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
  const s = trace._live();
  const urls = [];
  for (let i = 0, n = s.resourceCount(); i < n; i++) urls.push(s.resource(i));
  const statuses = await Promise.all(urls.map((u) => scanOnce(u, fetchImpl)));
  const scripts = {};
  urls.forEach((u, i) => (scripts[u] = statuses[i]));
  const idx = sourceIndex();
  trace._live(); // throws if the session was disposed while sources loaded
  const status = guard(() => idx.resolve(trace._handle));
  if (status !== 0) {
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
