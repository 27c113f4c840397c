// The field payload: a trace trimmed by the core and its metadata, as one
// JSON document, gzipped where CompressionStream exists. Wire format
// "webprof-field/1" (README "Field collection" documents it for servers):
//
//   {
//     "format": "webprof-field/1",
//     "release": "…",            // the app's release, as given (may be "")
//     "page": "https://…/path",  // the URL without query, fragment or
//                                 // credentials; "data:", "about:blank",
//                                 // "about:srcdoc", "blob:<origin>" (send.mjs pageUrl)
//     "userAgent": "…",
//     "sampler": "native" | "polyfill",
//     "sampleInterval": 10,      // ms, the interval the sampler really used
//     "timeOrigin": 1.7e12,      // epoch ms that sample timestamps count from
//     "startTime": 1.7e12,       // epoch ms profiling started
//     "reason": "duration" | "hidden" | "pagehide" | "full" | "flush",
//     "samples": {"recorded": n, "sent": n, "idleDropped": n, "thinnedDropped": n},
//     "metadata": {…},           // the caller's, when given
//     "trace": {resources, frames, stacks, samples}   // W3C ProfilerTrace
//   }
//
// The body is the gzip of that text (first bytes 1f 8b) or the text itself
// (first byte "{") where the browser has no CompressionStream; no header
// says which. Timestamps are rounded to 1 µs (what the W3C clock promises
// at best); frames are as sampled — the server maps them with the
// release's source maps.
import { check } from '../core/boundary.mjs';
import { tools, withToolsNow } from '../core/tools.mjs';
import { heldIn, loadInto, sessionTrace } from '../profiler/trace.mjs';

export const FORMAT = 'webprof-field/1';
// Attempts of the budget loop (encodePayload): two are the usual case.
const ATTEMPTS = 8;

const encoder = new TextEncoder();

/**
 * The core's trimmed copy of `trace` (src/export/trace_trim.h), trimmed in
 * the tools module (js/core/tools.mjs: the exporters' module, which must be
 * loaded; encodePayload loads it): {trace, idleDropped, thinnedDropped}.
 * maxSamples 0 = no cap.
 */
export function trimTrace(trace, { maxSamples = 0, dropIdle = true } = {}) {
  return withToolsNow((m) => {
    let src = heldIn(m, trace);
    let loaded = null;
    if (src === null) {
      loaded = loadInto(m, trace);
      src = loaded.handle();
    }
    const dst = new m.Session(10, 0, 0);
    try {
      const r = m.trimTrace(src, dst.handle(), maxSamples, dropIdle);
      check(r.status, 'trimTrace');
      return { trace: sessionTrace(dst), idleDropped: r.idleDropped, thinnedDropped: r.thinnedDropped };
    } finally {
      dst.delete();
      if (loaded) loaded.delete();
    }
  }, 'trimming a trace');
}

/** gzip bytes with CompressionStream; null where there is none. */
export async function gzip(bytes) {
  if (typeof CompressionStream !== 'function') return null;
  const cs = new CompressionStream('gzip');
  const writer = cs.writable.getWriter();
  // Written and read concurrently: a stream's queue would otherwise stall.
  // A compression that fails rejects the write and the read alike; the
  // read's rejection is the one thrown, so the write's must not be left
  // unhandled in the page (it is still thrown below when the read ends).
  const done = writer.write(bytes).then(() => writer.close());
  done.catch(() => {});
  const chunks = [];
  let size = 0;
  const reader = cs.readable.getReader();
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await done;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * The payload of `trace` within maxBytes if trimming can get it there:
 * {body: Uint8Array, compressed, samples, idleDropped, thinnedDropped,
 * gzipError}. A gzip that fails (gzipError: its message) leaves the JSON
 * text, budgeted as such: nothing recorded is lost to the compressor.
 * A body still over maxBytes (the frames alone too large) is returned as
 * is; the caller decides. The next cap comes from a straight line through
 * the last two (samples, bytes) points — a payload is a fixed part (metadata,
 * frames) plus a part per sample — or, from one point, in proportion; it
 * always shrinks by at least a quarter, so the loop ends.
 */
export async function encodePayload(trace, { maxSamples, maxBytes, meta }) {
  await tools();
  let cap = maxSamples;
  let last = null;
  let gzipError = null;
  for (let attempt = 1; ; attempt++) {
    const r = await encodeOnce(trace, cap, meta, gzipError === null);
    gzipError = r.gzipError = r.gzipError ?? gzipError;
    if (r.body.byteLength <= maxBytes || attempt === ATTEMPTS || r.samples <= 1) return r;
    const n = r.samples;
    const target = maxBytes * 0.95;
    let next = Math.floor((n * target) / r.body.byteLength);
    if (last && last.samples > n && last.body.byteLength > r.body.byteLength) {
      const perSample = (last.body.byteLength - r.body.byteLength) / (last.samples - n);
      const fixed = r.body.byteLength - perSample * n;
      if (fixed < target) next = Math.floor((target - fixed) / perSample);
    }
    cap = Math.max(1, Math.min(next, Math.floor(n * 0.75)));
    last = r;
  }
}

async function encodeOnce(trace, cap, meta, compress) {
  const t = trimTrace(trace, { maxSamples: cap });
  for (const s of t.trace.samples) s.timestamp = Math.round(s.timestamp * 1000) / 1000;
  const doc = {
    format: FORMAT,
    ...meta,
    samples: {
      recorded: trace.samples.length,
      sent: t.trace.samples.length,
      idleDropped: t.idleDropped,
      thinnedDropped: t.thinnedDropped,
    },
    trace: t.trace,
  };
  if (doc.metadata === undefined) delete doc.metadata;
  const text = encoder.encode(JSON.stringify(doc));
  let zipped = null;
  let gzipError = null;
  if (compress) {
    try {
      zipped = await gzip(text);
    } catch (e) {
      gzipError = String((e && e.message) || e);
    }
  }
  return {
    body: zipped || text,
    compressed: !!zipped,
    gzipError,
    samples: t.trace.samples.length,
    idleDropped: t.idleDropped,
    thinnedDropped: t.thinnedDropped,
  };
}
