// The runtime of dense probe sites inserted by the build-time transform
// (js/transform/): `if (--__wp$f[0] < 0) __wp$s();` at every function
// entry and loop back-edge of the transformed code.
//
// The check is one decrement of a typed-array element; only when it goes
// negative does __wp$s run. Two ways to make it go negative:
//  - counter mode (default): __wp$s reads the clock, samples if due and
//    re-arms the counter with the stride of stride.mjs (a hot site costs a
//    decrement; at a steady rate of checks the first check at or after the
//    due time samples);
//  - ticker mode (wherever the page may share memory with a Worker: a
//    cross-origin isolated page, or a browser started with shared memory
//    allowed — webprof record, the Playwright fixture): the flag lives in a
//    SharedArrayBuffer and a Worker stores -1 into it once per interval;
//    __wp$s re-arms it to "idle", so the clock is read only when due.
// With no session running the counter is parked at IDLE and a session
// start re-arms it at once (sampler.onSessionsChanged).
//
// The checks the transform emits since 2026-12 are guarded,
// `if(__wp$on&&--__wp$f[0]<0)__wp$s();`, by a global this module defines:
// 0 until a session runs, so V8 folds the guard to a constant and the
// optimized code skips the checks (a page that never profiles pays their
// bytecode, not their run time). A session start makes it non-zero — the
// code that folded it deoptimizes once and from then on reads it — and it
// counts the webprof copies in this realm with a session running, so one
// copy stopping does not switch off another's checks. Checks emitted before
// the guard (`if(--__wp$f[0]<0)__wp$s();`) run as they always did.
import { __webprof$due, now, onSessionsChanged } from './sampler.mjs';
import { Stride } from './stride.mjs';

const IDLE = 1 << 30;
// Browsers expose the constructor only where a SharedArrayBuffer may be
// posted to a Worker (crossOriginIsolated, or Chromium's
// SharedArrayBuffer feature switch); where posting fails all the same
// (startTicker), the checks stay in counter mode.
const shared = typeof SharedArrayBuffer === 'function' && typeof Worker === 'function';

/**
 * [0] the probe-site counter/flag; in ticker mode also [1] = 1 once the
 * ticker runs, [2] = the interval it ticks at (µs, 0 = parked), [3] = 0
 * (the ticker sleeps on it: a worker may lack the constructor).
 */
export const __wp$f = new Int32Array(shared ? new SharedArrayBuffer(16) : new ArrayBuffer(16));
__wp$f[0] = IDLE;

let interval = 0;
const stride = new Stride();
const GUARD = '__wp$on';
try {
  if (typeof globalThis[GUARD] !== 'number') globalThis[GUARD] = 0;
} catch {
  // A frozen global object: the guarded checks cannot run here at all.
}
let guarding = false; // this copy holds one count of the guard
function guard(on) {
  if (on === guarding) return;
  guarding = on;
  try {
    globalThis[GUARD] = Math.max(0, (globalThis[GUARD] | 0) + (on ? 1 : -1));
  } catch {
    // As above.
  }
}
let ticker = null;

// The ticker Worker starts with the first session and stays: a worker
// cannot start while the page's thread is busy, so until it reports running
// ([1]) the probe sites work in counter mode. It ticks for at most 50 ms at
// a time and then lets its event loop run (a debugger, or Playwright
// evaluating in every worker of the page, gets an answer), and stops while
// no session runs ([2] = 0) until the page posts to it again.
const TICKER_SOURCE = `let f = null;
let running = false;
const again = new MessageChannel();
again.port1.onmessage = tick;
onmessage = (e) => {
  if (f === null) { f = e.data; Atomics.store(f, 1, 1); }
  if (!running) { running = true; tick(); }
};
function tick() {
  const end = Date.now() + 50;
  while (Date.now() < end) {
    const us = Atomics.load(f, 2);
    if (us === 0) { running = false; return; }
    Atomics.wait(f, 3, 0, us / 1000);
    Atomics.store(f, 0, -1);
  }
  again.port2.postMessage(0);
}`;

let tickerTried = false;
function startTicker() {
  if (tickerTried) {
    if (ticker) ticker.postMessage(0); // a session starts: tick again
    return;
  }
  tickerTried = true;
  try {
    const url = URL.createObjectURL(new Blob([TICKER_SOURCE], { type: 'text/javascript' }));
    ticker = new Worker(url);
    URL.revokeObjectURL(url);
    ticker.postMessage(__wp$f);
  } catch {
    // A CSP without blob: workers, or memory that may not be shared
    // (DataCloneError): counter mode.
    if (ticker) ticker.terminate();
    ticker = null;
  }
}

onSessionsChanged((ms) => {
  if (ms === interval) return;
  interval = ms;
  guard(ms > 0);
  if (shared) {
    Atomics.store(__wp$f, 2, Math.round(ms * 1000));
    if (ms) startTicker();
  }
  if (!ms) {
    __wp$f[0] = IDLE;
    return;
  }
  stride.reset();
  __wp$f[0] = 0; // the next site samples (and re-arms)
});

/**
 * The slow path of a probe site: sample if due, re-arm the counter.
 * @param {Function} [entry] the outermost webprof function on the stack (a
 *   platform-call wrapper, js/profiler/platform-sites.mjs); the inserted
 *   checks call it with none
 */
function __webprof$dense(entry) {
  const t = now();
  // Ticker mode: a tick is due (at the ticker's interval); idle until the
  // next one, unless a longer interval's sample is due soon (then count
  // sites until due, as in counter mode).
  const ticking = ticker !== null && __wp$f[1] === 1;
  const left = __webprof$due(
    t,
    typeof entry === 'function' ? entry : __webprof$dense,
    ticking ? interval : 0,
  );
  if (!left || (ticking && left > interval / 2)) {
    __wp$f[0] = IDLE;
    return;
  }
  // Armed with n, the counter runs out after n + 1 checks: arm n - 1.
  __wp$f[0] = stride.next(t, left, interval) - 1;
}
export { __webprof$dense as __wp$s };

/**
 * Which mode the probe sites run in: `mode` is 'ticker' once the ticker
 * Worker runs, else 'counter' (results and benchmarks report it).
 */
export function denseMode() {
  const ticking = ticker !== null && __wp$f[1] === 1;
  return {
    mode: ticking ? 'ticker' : 'counter',
    shared,
    ticker: ticker !== null,
    ticking,
    stride: stride.stride,
    interval,
  };
}
