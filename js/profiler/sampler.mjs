// The polyfill sampler: when is a sample due, where is it taken, and the
// hand-over of the captured stack text to the core.
//
// JavaScript cannot interrupt itself, so samples are taken at probe sites —
// points where webprof's code runs anyway:
//  - task entry and exit, by wrapping the callbacks given to setTimeout,
//    setInterval, requestAnimationFrame, addEventListener (message events
//    included), queueMicrotask and Promise.prototype.then;
//  - explicit sites: wrap(fn), instrument(object), and probe() for the
//    explicit-probes API.
// A probe is a countdown decrement; only every `stride`-th probe reads the
// clock (performance.now ≈ 120 ns). The stride (js/profiler/stride.mjs)
// predicts how many probes pass until the next due time: a hot site costs
// ~1 ns per call, sparse ones read the clock each time. When a sample is due at a site the
// stack's frames are captured (js/profiler/stack_capture.mjs) and the core takes the
// sample at once in every due session — timestamp, order, the buffer limit
// and samplebufferfull are decided then (wasm/bind_profiler.cpp). The
// capture's text is formatted and parsed later, oldest first, in batches:
// formatting is most of a sample's cost and is not needed until the trace is
// read (js/profiler/deferred.mjs).
// In ticker mode (js/profiler/dense.mjs) a Worker's ticks say when: every
// site takes the ticks since the last one taken, one sample each at its
// tick's time, all with the stack captured there (__webprof$ticked).
// Between tasks a timer samples too: nothing of the page runs then, so
// those samples carry no stackId (idle, as the spec defines). The timer hops
// through a MessageChannel so browsers' 4 ms clamp of nested timers does
// not apply and 1 ms intervals hold.
//
// The probe sites themselves live in js/profiler/probe-sites.mjs (installed by the
// Profiler when a session starts, taken out when none runs); the sessions'
// registry, faults, and each one's trace in the core (configuration, the
// replay of what was due before the core was ready) in js/profiler/session.mjs.
// webprof's own frames are named with MARKER (the core strips them); do not
// give the functions on the probe -> capture path other names.
import { isReady, onPoison, ready, trapError, trapped } from '../core/core.mjs';
import {
  boundary,
  samplerAttach,
  samplerDefer,
  samplerDetach,
  samplerIdle,
  samplerResult,
  samplerTakeMany,
} from '../core/boundary.mjs';
import { captureFrames, stackText, withOwnFormat } from './stack_capture.mjs';
import { defer, dropPending } from './deferred.mjs';
import { setSampleSite } from '../probes/probes.mjs';
import { Stride } from './stride.mjs';
// The sampler's own timer and listener must not be probe sites: the
// platform's as webprof loaded them.
import { platformAddEventListener, platformQueueMicrotask, platformSetTimeout } from '../core/platform.mjs';
// Last: its clock and own-URL rule are read at load, as when they lived here.
import { fault, materialize, now, sessions } from './session.mjs';

export {
  MARKER,
  SamplerSession,
  configurePageSampler,
  keepBuiltinFrames,
  materialize,
  now,
  ownUrl,
} from './session.mjs';

/** The smallest interval the polyfill samples at (ms). */
export const MIN_INTERVAL = 1;

let dueAt = Infinity;
let minInterval = Infinity;
let countdown = 1 << 30; // nothing runs: probes only decrement
const stride = new Stride();
let hidden = false;

/** Registers a session; it is sampled from now on. */
export function startSession(session, makeTrace) {
  const trap = trapError();
  if (trap) throw trap;
  watchVisibility();
  session.makeTrace = makeTrace;
  if (hidden) session.pausedByVisibility = true;
  sessions.push(session);
  if (isReady()) attach(session);
  else
    ready.then(
      () => session.active && attach(session),
      () => {},
    );
  recompute();
  countdown = 1;
  stride.reset();
  schedule();
}

/** Stops sampling `session` (synchronously: later samples are not kept). */
export function stopSession(session) {
  if (!session.active) return;
  session.active = false;
  const i = sessions.indexOf(session);
  if (i >= 0) sessions.splice(i, 1);
  if (session.trace) samplerDetach(session.trace.coreHandle());
  recompute();
}

function attach(session) {
  if (materialize(session) === boundary().status.BufferFull) return full(session);
  // Keep the core's attach order equal to `sessions` order.
  for (const s of sessions) if (s.trace) samplerDetach(s.trace.coreHandle());
  for (const s of sessions) if (s.trace) samplerAttach(s.trace.coreHandle());
}

function recompute() {
  dueAt = Infinity;
  minInterval = Infinity;
  for (const s of sessions) {
    if (s.nextDue < dueAt) dueAt = s.nextDue;
    if (s.interval < minInterval) minInterval = s.interval;
  }
  if (sessions.length === 0 || hidden) countdown = 1 << 30;
  for (const fn of listeners) fn(sessions.length > 0 && !hidden ? minInterval : 0, sessions.length);
}

// Dense probe sites (js/profiler/dense.mjs) and the task probe sites
// (js/profiler/probe-sites.mjs) follow the running sessions.
const listeners = [];
/**
 * fn(interval, count): the smallest running interval (ms), 0 when nothing
 * samples (none runs, or the page is hidden); count = sessions registered.
 */
export function onSessionsChanged(fn) {
  listeners.push(fn);
  recompute();
}

/**
 * For dense probe sites: at time t (performance.now()), takes a sample if
 * one is due. Returns the ms until the next sample is due (> 0), or 0 when
 * nothing samples. Named with MARKER: its frame is webprof's own.
 * @param {number} t
 * @param {Function} [entry] the probe site's own function: V8 leaves it and
 *   the frames it called out of the capture (fewer frames to capture/format)
 */
export function __webprof$due(t, entry = __webprof$due) {
  if (sessions.length === 0 || hidden) return 0;
  if (t >= dueAt) {
    const n = unbroken ? missed(t) : 1;
    // (A sliver early: the due times are sums that may round below a session's own.)
    if (n > 1) __webprof$sample(tickTimes, n, entry, minInterval / 4096);
    else __webprof$sample(one(t), 1, entry);
  }
  if (!unbroken && platformQueueMicrotask(breakRun)) unbroken = true;
  return sessions.length === 0 ? 0 : Math.max(dueAt - t, 1e-3);
}

// Counter mode's late samples. A dense check that finds several due times
// passed since the previous clock read takes a sample for each — at their
// due times, the last at the check — all with its stack, as ticker mode does
// with the ticks of a stretch: one sample for a 60 ms JSON.parse, GC pause
// or RegExp exec gave that stretch a sixth of its time at 10 ms, and the
// spacing a 60 ms gap. Only when the code ran unbroken since that read: a
// microtask queued there has not run, so no task ended and the page was
// not idle (idle time is the idle timer's, without a stack). After a break
// (the next task's first check, an await) it stays one sample: the stretch
// may have been idle or another task's, and this stack says nothing of it.
let unbroken = false;
function breakRun() {
  unbroken = false;
}
/**
 * The due times `t` has passed when one was due at `due` (due + j·interval
 * ≤ t) into out[0..n), the last replaced by `t`, the newest `cap` if more;
 * n (1: none but t). Counter mode's due times at a check, and the ticker
 * Worker's ticks when its thread ran late (dense.mjs): self-contained, the
 * Worker runs it as source text.
 */
export function passedDueTimes(due, interval, t, cap, out) {
  const k = Math.floor((t - due) / interval) + 1;
  const n = Math.min(k, cap);
  if (!(n > 1)) {
    out[0] = t;
    return 1;
  }
  const first = due + (k - n) * interval;
  for (let j = 0; j < n - 1; j++) out[j] = first + j * interval;
  out[n - 1] = t;
  return n;
}
const missed = (t) => passedDueTimes(dueAt, minInterval, t, tickTimes.length, tickTimes);

// Ticker mode (js/profiler/dense.mjs useTicks): {ticking(), take(out, t)}.
let ticks = null;
const tickTimes = new Float64Array(1024);
/** Ticker mode's source of ticks (dense.mjs): every sampling site takes them. */
export function useTicks(source) {
  ticks = source;
}

/**
 * Ticker mode: the ticks since the last sample become samples, one each,
 * timestamped at its tick, for the sessions due then, all with the stack
 * captured here (null `entry`: the idle timer's, no stack). By the accuracy
 * model (docs/ARCHITECTURE.md) the ticks fell in the stretch since the
 * previous check, which ran in the function this stack shows — what an
 * interrupting sampler would have seen at each tick. A tick counts as due
 * half an interval early: ticks come on the ticker's schedule, not
 * "previous sample + interval".
 */
export function __webprof$ticked(entry) {
  const n = ticks.take(tickTimes, now());
  if (n > 0 && sessions.length > 0 && !hidden) __webprof$sample(tickTimes, n, entry, minInterval / 2);
  return n;
}

/** A probe site. Cheap unless a sample is due. */
export { __webprof$probe as probe };
// Every explicit probe is one while a window records (js/probes/probes.mjs).
setSampleSite(__webprof$probe);
function __webprof$probe() {
  if (--countdown > 0) return;
  __webprof$check();
}

function __webprof$check() {
  if (sessions.length === 0 || hidden) {
    countdown = 1 << 30;
    return;
  }
  if (ticks !== null && ticks.ticking()) {
    countdown = 1; // every probe takes the ticks pending
    __webprof$ticked(__webprof$probe);
    return;
  }
  const t = now();
  if (t >= dueAt) __webprof$sample(one(t), 1, __webprof$probe);
  if (sessions.length === 0) return; // the sample filled the last buffer
  countdown = stride.next(t, Math.max(dueAt - t, 0), minInterval);
}

const single = new Float64Array(1);
function one(t) {
  single[0] = t;
  return single;
}

// Due samples at times[0..n). `entry`: the outermost webprof function on the
// stack (V8 captures only the frames below it); null for idle samples (no
// stack). Sampling sites are not calls the page made to webprof: a failure
// here (a trap poisons the core) is never thrown into the page's code; it
// stops sampling and the sessions' API calls (Profiler.stop()) report it.
function __webprof$sample(times, n, entry, early = 0) {
  try {
    __webprof$take(times, n, entry, early);
  } catch (e) {
    // A trap poisons the core (onPoison stops every session); anything
    // else is counted and sampling goes on.
    if (trapped(e) === e) fault('sample', e);
  }
}

// The stack of a due sample, or null (the sample is then kept without one):
// the page may have broken what a capture relies on (a throwing
// Error.stackTraceLimit accessor), which is counted, never thrown.
function __webprof$capture(entry) {
  try {
    return captureFrames(entry);
  } catch (e) {
    fault('capture', e);
    return null;
  }
}

// One row per time some attached session is due at: its mask (at most one
// per tick taken, tickTimes.length).
const dueTimes = new Float64Array(1024);
const dueMasks = new Float64Array(1024);

function __webprof$take(times, n, entry, early) {
  // Bit i of a mask selects the i-th session attached to the core (those
  // past the mask's width always). No session is attached before the core
  // is ready (boundary() needs it).
  let bits = 0;
  let rows = 0;
  let pendingDue = null; // [session, time, …] of sessions not attached yet
  for (let j = 0; j < n; j++) {
    const t = times[j];
    let mask = 0;
    let attachedDue = false;
    let ai = 0;
    for (const s of sessions) {
      const idx = s.trace ? ai++ : -1;
      if (t < s.nextDue - early) continue;
      s.nextDue = t + s.interval;
      if (s.pausedByVisibility) continue;
      if (idx < 0) (pendingDue || (pendingDue = [])).push(s, t);
      else {
        if (!bits) bits = boundary().sampleMaskBits;
        if (idx < bits) mask |= 1 << idx;
        attachedDue = true;
      }
    }
    if (!attachedDue) continue;
    dueTimes[rows] = t;
    dueMasks[rows++] = mask >>> 0;
  }
  recompute();
  if (!rows && !pendingDue) return;
  const captured = entry ? __webprof$capture(entry) : null;
  if (pendingDue) {
    const text = captured && withOwnFormat(stackText, captured);
    for (let i = 0; i < pendingDue.length; i += 2) pendingDue[i].pending.push([pendingDue[i + 1], text]);
  }
  if (!rows) return;
  const { status } = boundary();
  if (rows === 1) {
    if (captured === null) samplerIdle(dueTimes[0], dueMasks[0]);
    else if (samplerDefer(dueTimes[0], dueMasks[0]) > 0) defer(captured);
  } else if (samplerTakeMany(dueTimes, dueMasks, rows, captured !== null) > 0) defer(captured);
  // Results are in attach order; full() edits `sessions`, so the full ones
  // are collected first (an array is made only when one is full).
  let k = 0;
  let filled = null;
  for (const s of sessions) {
    if (s.trace && samplerResult(k++) === status.BufferFull) (filled || (filled = [])).push(s);
  }
  if (filled) for (const s of filled) full(s);
}

/**
 * Stops every session at once. The error is recorded where every API call
 * sees it: a trap poisoned the core (isReady() false, Profiler.stop() and
 * the rest throw it).
 */
function samplingFailed() {
  for (const s of sessions) s.active = false;
  sessions.length = 0;
  dropPending();
  recompute();
}
onPoison(samplingFailed);

function full(session) {
  stopSession(session);
  session.full = true;
  session.onFull();
}

// ---- the idle timer ----
let timerPending = false;
let channel = null;
function schedule(atLeast = 0) {
  if (timerPending || sessions.length === 0) return;
  timerPending = true;
  const delay = Math.max(atLeast, Math.min(dueAt, now() + 1000) - now());
  timedWait = delay >= 1;
  platformSetTimeout(__webprof$timer, delay);
}
function __webprof$timer() {
  // Browsers clamp timers nested 5 deep to 4 ms; re-entering through a
  // message task resets the nesting. Node has no clamp, and an unref'd
  // MessagePort there is only serviced when the loop wakes for something
  // else, so Node stays on plain timers.
  if (!channel && typeof MessageChannel === 'function' && typeof document !== 'undefined') {
    channel = new MessageChannel();
    channel.port1.onmessage = __webprof$tick;
  }
  if (channel) channel.port2.postMessage(0);
  else __webprof$tick();
}
// A clock standing still: three timers of at least 1 ms in a row and it did not move.
let lastTick = -1;
let stalled = 0;
let timedWait = false;
function __webprof$tick() {
  timerPending = false;
  if (sessions.length === 0) return;
  const t = now();
  if (timedWait && t === lastTick) {
    if (++stalled >= 3) fault('clock');
  } else stalled = 0;
  lastTick = t;
  let wait = 0;
  // Ticker mode: the ticks since the last check become idle samples; with
  // none yet, wait for one rather than spin.
  if (!hidden && ticks !== null && ticks.ticking()) wait = __webprof$ticked(null) ? 0 : minInterval / 2;
  else if (!hidden && t >= dueAt) __webprof$sample(one(t), 1, null);
  schedule(wait);
}

// ---- visibility: sessions are paused while the document is hidden ----
let watching = false;
function watchVisibility() {
  if (watching) return;
  watching = true;
  if (typeof document !== 'undefined' && platformAddEventListener(document, 'visibilitychange', onVisibility))
    hidden = document.visibilityState === 'hidden';
}
function onVisibility() {
  hidden = document.visibilityState === 'hidden';
  for (const s of sessions) {
    s.pausedByVisibility = hidden;
    if (s.trace) hidden ? s.trace.pause() : s.trace.resume();
    if (!hidden) s.nextDue = now();
  }
  recompute();
  if (!hidden) {
    countdown = 1;
    schedule();
  }
}
