// Sending a sampled load's trace (collect.mjs): the payload made within its
// budget (payload.mjs), then posted. It runs once, at the end of a sampled
// load, so it is the tools module's JS (js/tools-js.mjs), loaded with it when
// the sampled load starts (collect.mjs), not part of a page's first load.
// Never into the page: failures are the collector's diagnostics (`d`, and
// `error(message)` for each sentence).
import { encodePayload } from './payload.mjs';

// What fetch(keepalive) and sendBeacon may have in flight per page
// (Fetch's "keepalive" quota): a larger body is refused.
const KEEPALIVE_LIMIT = 64 * 1024;

/**
 * Encodes `trace` with the collector's options `o` and sends it to
 * `o.endpoint`, filling in the diagnostics `d` (state, sizes, transport, status).
 * @param {{reason: string, sampleInterval: number, startTime: number}} run
 */
export async function sendFieldTrace(trace, o, d, error, run) {
  const encoded = await encodePayload(trace, {
    maxSamples: o.maxSamples,
    maxBytes: o.maxBytes,
    meta: {
      release: o.release,
      page: pageUrl(),
      userAgent: typeof navigator !== 'undefined' ? String(navigator.userAgent) : '',
      sampler: d.sampler,
      sampleInterval: run.sampleInterval,
      timeOrigin: typeof performance !== 'undefined' ? performance.timeOrigin : 0,
      startTime: run.startTime,
      reason: run.reason,
      metadata: o.metadata,
    },
  });
  if (encoded.gzipError) error(`gzip failed (${encoded.gzipError}): sent as JSON text`);
  d.idleDropped = encoded.idleDropped;
  d.thinnedDropped = encoded.thinnedDropped;
  d.bytes = encoded.body.byteLength;
  d.compressed = encoded.compressed;
  if (encoded.body.byteLength > o.maxBytes) {
    d.state = 'failed';
    error(
      `the trace is ${encoded.body.byteLength} bytes after trimming to ${encoded.samples} samples, ` +
        `over maxBytes ${o.maxBytes}: not sent`,
    );
    return;
  }
  d.sent = encoded.samples;
  const unloading = run.reason === 'pagehide' || run.reason === 'hidden';
  await post(o.endpoint, encoded.body, unloading, d, error);
}

// The page may be going away: a beacon (queued by the browser, sent after
// unload), else fetch with keepalive. Both carry at most 64 KiB in flight
// per page; a larger body is sent with a plain fetch, which the browser
// cancels if the page unloads first. No Content-Type: the request stays a
// CORS "simple" one, and the server tells gzip from JSON by its first bytes.
async function post(endpoint, body, unloading, d, error) {
  const small = body.byteLength <= KEEPALIVE_LIMIT;
  if (unloading && small && typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
    d.transport = 'beacon';
    if (navigator.sendBeacon(endpoint, new Blob([body]))) {
      d.state = 'sent';
      return;
    }
    error('navigator.sendBeacon refused the payload (the browser queue is full); trying fetch');
  }
  d.transport = small ? 'fetch-keepalive' : 'fetch';
  const response = await fetch(endpoint, {
    method: 'POST',
    body,
    keepalive: small,
    credentials: 'omit',
  });
  d.status = response.status;
  if (!response.ok) {
    d.state = 'failed';
    let text = '';
    try {
      text = (await response.text()).slice(0, 200);
    } catch {
      /* the status says enough */
    }
    error(`the endpoint answered ${response.status}${text ? `: ${text}` : ''}`);
    return;
  }
  d.state = 'sent';
}

// The payload's "page" (payload.mjs): the page's URL without query,
// fragment or credentials — they often hold personal data. Read from the
// URL, not location.origin: a sandboxed or data: document's origin is
// "null", and a blob: document's pathname is a whole URL. Where the URL
// has no path to keep, the scheme alone: a data: URL is the document
// itself; about:blank and about:srcdoc say which document; a blob: URL's id
// is random per load, so its origin stands for it. '' when unreadable.
function pageUrl() {
  const l = globalThis.location;
  let u;
  try {
    u = new URL(String(l.href));
  } catch {
    return '';
  }
  if (u.protocol === 'about:')
    return u.pathname === 'blank' || u.pathname === 'srcdoc' ? `about:${u.pathname}` : 'about:';
  if (u.protocol === 'blob:') return u.origin === 'null' ? 'blob:' : `blob:${u.origin}`;
  if (!u.pathname.startsWith('/')) return u.protocol; // data:, other opaque paths
  return `${u.protocol}//${u.host}${u.pathname}`;
}
