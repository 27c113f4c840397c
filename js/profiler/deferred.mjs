// Deferred stacks: captures whose sample the core has already taken and
// whose Error.stack text it waits for.
//
// Formatting a captured stack as text (and encoding and parsing it) is most
// of a polyfill sample's cost, and nothing needs it until the trace is read:
// the sampler (js/profiler/sampler.mjs) captures the frames at the sample, the core
// takes the sample at once (src/deferred_stacks.h), and the texts follow
// here, oldest first — the order the core expects — at stop()/results(), in
// idle time, or when too many wait.
import {
  boundary,
  samplerConfigure,
  samplerResolve,
  samplerSkip,
  samplerUnclassified,
  writeScratch,
} from '../core/boundary.mjs';
import { coreWasmUrl, trapped } from '../core/core.mjs';
import { toolsWasmUrl } from '../core/tools.mjs';
import { isMutedScriptUrl } from './muted.mjs';
import { stackText, withOwnFormat } from './stack_capture.mjs';
import { pickClock } from '../core/clock.mjs';
// Resolving must not be a probe site: the timers as webprof loaded them.
import { platformRequestIdleCallback, platformSetTimeout } from '../core/platform.mjs';

const now = pickClock(globalThis);

// Captures whose sample the core has taken and whose text it waits for,
// oldest first (the core expects the texts in this order). A pending capture
// keeps its frames' functions and receivers alive: ≈1.4 KB at 30 frames and
// ≈10 KB at 251 frames in Chromium 156 (≈40 B a frame), so at most
// MAX_PENDING wait: ≈0.7 MB at that depth, ≤ ≈5 MB at the 256-frame capture limit, ≈0.5 s of
// samples at 1 ms. Past that the oldest RESOLVE_CHUNK are resolved in the
// page's time: a busy stretch longer than the bound pays what eager
// formatting did, in short batches (≈1–2 ms) rather than one long pause.
const MAX_PENDING = 512;
const RESOLVE_CHUNK = 32;
// In idle time a slice resolves for at most this long (ms) before giving the
// thread back, when the idle callback did not say how long it may run.
const SLICE_MS = 4;
const queue = [];
let resolveScheduled = false;
let resolving = false;

/** Queues a capture whose sample the core took (wp_profiler_defer returned > 0). */
export function defer(captured) {
  queue.push(captured);
  if (queue.length >= MAX_PENDING) resolvePending(RESOLVE_CHUNK);
  else if (!resolveScheduled) scheduleResolve();
}

/**
 * Formats and parses the `n` oldest pending captures (all by default), so
 * every sample taken so far has its stack. Call before reading a sampled
 * trace (Profiler.stop(), RuntimeProfiler.results()).
 */
export function resolvePending(n = Infinity) {
  // Classifying a script may run page code (a patched DOM API), and with it
  // a probe site: a nested call would hand the core newer texts before the
  // batch's older ones. The captures it adds wait for the next call.
  if (resolving || queue.length === 0) return;
  resolving = true;
  try {
    const batch = queue.splice(0, n);
    // The page's Error.prepareStackTrace is set aside only while each text
    // is read, not while scripts are classified.
    for (const captured of batch) resolveOne(textOf(captured));
  } finally {
    resolving = false;
  }
}

/** Captures whose text could not be read (the sample keeps no stack): counted for diagnostics. */
export const deferredFaults = { format: 0, message: '' };

// A page may have made the text unreadable (a throwing
// Error.prepareStackTrace accessor): the sample then keeps no stack; the
// order the core expects holds.
function textOf(captured) {
  try {
    return withOwnFormat(stackText, captured);
  } catch (e) {
    deferredFaults.format++;
    if (!deferredFaults.message) deferredFaults.message = String((e && e.message) || e).slice(0, 200);
    return '';
  }
}

// Classifies scripts the core has not seen (js/profiler/muted.mjs) and retries, so no
// frame of an unclassified script is ever kept; still unclassified (the cap
// of the script table): the sample keeps no stack.
function resolveOne(text) {
  const unclassified = boundary().status.UnclassifiedScript;
  for (let round = 0; round < 4; round++) {
    if (samplerResolve(text) !== unclassified) return;
    classifyReported();
  }
  samplerSkip();
}

// Resolving waits for idle time: requestIdleCallback in a window, a timer
// where there is none (workers, Node).
function scheduleResolve() {
  resolveScheduled = true;
  if (platformRequestIdleCallback) platformRequestIdleCallback(__webprof$idle, { timeout: 1000 });
  else platformSetTimeout(__webprof$idle, 16);
}
function __webprof$idle(deadline) {
  resolveScheduled = false;
  const budget = deadline && !deadline.didTimeout ? deadline.timeRemaining() : SLICE_MS;
  const end = now() + budget;
  try {
    do resolvePending(8);
    while (queue.length > 0 && now() < end);
  } catch (e) {
    // Not the page's call: never thrown at it. A trap poisons the core
    // (js/core/core.mjs), which stops sampling; the API calls report it.
    trapped(e);
    dropPending();
    return;
  }
  if (queue.length > 0) scheduleResolve();
}

/** Forgets every pending capture (sampling failed: they cannot be resolved). */
export function dropPending() {
  queue.length = 0;
}

/**
 * Classifies the script URLs the core's last capture refused as unknown
 * (CORS-muted or not, js/profiler/muted.mjs) so the caller can retry.
 */
export function classifyReported() {
  classifyUrls(samplerUnclassified(), samplerConfigure);
}

// A core sampler's configure(kind, ptr, len) takes the kinds of
// boundary().samplerConfig: the W3C Profiler's sampler and RuntimeProfile
// (frame()) take the same ones (src/boundary/boundary.h).

/**
 * Makes a core sampler drop webprof's own frames (named with `marker`, under
 * `ownUrl` when given, or its Wasm core's) and refuse frames of scripts not
 * classified yet.
 */
export function configureSampler(configure, marker, ownUrl) {
  const kind = boundary().samplerConfig;
  const name = writeScratch(marker);
  configure(kind.OwnNameMarker, name.ptr, name.len);
  if (ownUrl) {
    const own = writeScratch(ownUrl);
    configure(kind.OwnUrlPrefix, own.ptr, own.len);
  }
  // The Wasm core's frames (Chromium's native trace shows them): its URL's
  // head is enough — the core matches URLs cut from each other (a data: URL
  // is ~1/3 MB; Chromium cuts it to 1024 characters anyway).
  const core = writeScratch(coreWasmUrl().slice(0, 4096));
  configure(kind.OwnUrl, core.ptr, core.len);
  // The tools module's too, where it is a module of its own (not in Node).
  const toolsUrl = toolsWasmUrl();
  if (toolsUrl !== null) {
    const tools = writeScratch(toolsUrl.slice(0, 4096));
    configure(kind.OwnUrl, tools.ptr, tools.len);
  }
  configure(kind.RequireClassified, 0, 1); // non-empty text: on
}

/** Makes a core sampler keep (or drop, its default) frames without a script. */
export function configureBuiltinFrames(configure, keep) {
  configure(boundary().samplerConfig.KeepBuiltins, 0, keep ? 1 : 0);
}

/**
 * Tells a core sampler's `configure(kind, ptr, len)` whether each of the
 * '\n'-joined script `urls` is CORS-muted (the sampler's and frame()'s).
 */
export function classifyUrls(urls, configure) {
  for (const url of urls.split('\n')) {
    if (!url) continue;
    // Decided before the URL is written: classifying may run page code,
    // which may reach a probe site that uses the scratch buffer.
    const muted = isMutedScriptUrl(url);
    const s = writeScratch(url);
    const kind = boundary().samplerConfig;
    configure(muted ? kind.Muted : kind.NotMuted, s.ptr, s.len);
  }
}
