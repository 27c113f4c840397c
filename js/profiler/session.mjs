// A polyfill profiling session as the sampler (sampler.mjs) sees it: the
// registry of running ones, the faults met while they ran, and each one's
// trace in the core — the page sampler's rules (own frames, builtins), the
// trace's creation once the core is ready and the replay, in order, of what
// was due before.
//
// Kept apart from the deadlines and the probe path it serves: nothing here
// runs per probe. sampler.mjs re-exports the public names.
import { boundary, samplerConfigure, samplerSampleOne } from '../core/boundary.mjs';
import { ownUrlPrefix } from './stack_capture.mjs';
import { classifyReported, configureBuiltinFrames, configureSampler, deferredFaults } from './deferred.mjs';
import { samplingClock } from '../core/clock.mjs';

export const MARKER = '__webprof$';

// Sessions in core attach order (bit i of a sample mask = sessions[i]).
export const sessions = [];

// The Profiler's clock: the platform's performance.now() as webprof found it
// (js/core/clock.mjs samplingClock: a page's later replacement, NaN or a
// clock going backwards cannot stop sampling; such reads are counted).
export const now = samplingClock(globalThis, fault);

// webprof's own script, when it is a file of its own (stack_capture.mjs's one
// rule): its frames — e.g. the explicit-probes functions that call probe() —
// are removed by URL too; null when webprof is bundled into the page's code.
export const ownUrl = ownUrlPrefix() || null;

/**
 * One polyfill profiling session as the sampler sees it. Before the core is
 * ready, due samples are kept as (timestamp, stack text) and replayed.
 */
export class SamplerSession {
  constructor({ interval, maxBufferSize, onFull }) {
    this.interval = interval;
    this.maxBufferSize = maxBufferSize;
    this.onFull = onFull;
    this.nextDue = now();
    this.trace = null; // TraceSession once the core is ready
    this.pending = []; // [timestamp, text|null] before ready
    this.active = true;
    // Faults met while this session ran (webprof's, or the page's state
    // breaking webprof): counted, never thrown into the page; see diagnostics().
    this.faults = { clock: 0, capture: 0, sample: 0, message: '' };
    this.formatBase = deferredFaults.format;
  }

  /** What went wrong while this session ran, as sentences (empty: nothing). */
  diagnostics() {
    const f = this.faults;
    const out = [];
    if (f.clock)
      out.push(
        `webprof: the clock (performance.now) returned NaN, went backwards, stood still or threw ${f.clock} ` +
          `time(s); samples are timed by the last good reading`,
      );
    const unread = deferredFaults.format - this.formatBase;
    if (f.capture || unread)
      out.push(
        `webprof: ${f.capture + unread} sample(s) kept without a stack: capturing or reading it failed ` +
          `(${f.message || deferredFaults.message})`,
      );
    if (f.sample) out.push(`webprof: ${f.sample} sample(s) lost to a fault inside webprof (${f.message})`);
    return out;
  }
}

// A fault met while sampling: counted in every running session.
export function fault(kind, e) {
  for (const s of sessions) {
    s.faults[kind]++;
    if (e !== undefined && !s.faults.message) s.faults.message = String((e && e.message) || e).slice(0, 200);
  }
}

/** Tells the page's core sampler its rules (own frames, builtins), once. */
export function configurePageSampler() {
  if (configured) return;
  configured = true;
  configureSampler(samplerConfigure, MARKER, ownUrl);
  if (keepBuiltins) configureBuiltinFrames(samplerConfigure, true);
}

let configured = false;
let keepBuiltins = false;
/**
 * Keeps frames without a resource (builtins: Array.prototype.map, sort,
 * String.prototype.replace, a generator's next…; eval and new Function code)
 * in the polyfill's traces. Chromium's native Profiler reports none, and by
 * default neither does the polyfill: their time is their caller's. Page-wide; it applies to the
 * stacks the core parses from then on (call it before starting a Profiler).
 * @param {boolean} keep
 */
export function keepBuiltinFrames(keep) {
  keepBuiltins = !!keep;
  if (configured) configureBuiltinFrames(samplerConfigure, keepBuiltins);
}

function sampleOne(session, t, text) {
  for (let round = 0; round < 4; round++) {
    const r = samplerSampleOne(session.trace.coreHandle(), text, t);
    if (r !== boundary().status.UnclassifiedScript) return r;
    classifyReported();
  }
  return idleOne(session, t);
}

/**
 * Creates the session's trace in the core and replays, in order, what was
 * due before the core was there (pending samples were taken while the page
 * was visible, so the visibility pause applies after them). Returns
 * BufferFull when the replay filled the buffer, else Ok.
 */
export function materialize(session) {
  configurePageSampler();
  const { status } = boundary();
  session.trace = session.makeTrace();
  const pending = session.pending;
  session.pending = [];
  let r = status.Ok;
  for (const [ts, text] of pending) {
    r = text === null ? idleOne(session, ts) : sampleOne(session, ts, text);
    if (r === status.BufferFull) break;
  }
  if (session.pausedByVisibility) session.trace.pause();
  return r === status.BufferFull ? r : status.Ok;
}

function idleOne(session, t) {
  const { status } = boundary();
  return session.trace.sample(t) ? status.Ok : status.BufferFull;
}
