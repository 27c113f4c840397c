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
//  - ticker mode (page crossOriginIsolated): the flag lives in a
//    SharedArrayBuffer and a Worker stores -1 into it once per interval;
//    __wp$s re-arms it to "idle", so the clock is read only when due.
// With no session running the counter is parked at IDLE and a session
// start re-arms it at once (sampler.onSessionsChanged).
import { __webprof$due, now, onSessionsChanged } from './sampler.mjs';
import { Stride } from './stride.mjs';

const IDLE = 1 << 30;
const shared =
  typeof SharedArrayBuffer === 'function' &&
  globalThis.crossOriginIsolated === true &&
  typeof Worker === 'function';

/**
 * [0] the probe-site counter/flag; in ticker mode also [1] = 1 once the
 * ticker runs, [2] = the interval it ticks at (µs, 0 = parked).
 */
export const __wp$f = new Int32Array(shared ? new SharedArrayBuffer(16) : new ArrayBuffer(16));
__wp$f[0] = IDLE;

let interval = 0;
const stride = new Stride();
let ticker = null;

// The ticker parks on [2] while nothing samples. It starts once and stays:
// a worker cannot start while the page's thread is busy, so until it
// reports running ([1]) the probe sites work in counter mode.
const TICKER_SOURCE = `onmessage = (e) => {
  const f = e.data;
  const sleep = new Int32Array(new SharedArrayBuffer(4));
  Atomics.store(f, 1, 1);
  for (;;) {
    const us = Atomics.load(f, 2);
    if (us === 0) { Atomics.wait(f, 2, 0); continue; }
    Atomics.wait(sleep, 0, 0, us / 1000);
    Atomics.store(f, 0, -1);
  }
};`;

function startTicker() {
  if (ticker) return;
  try {
    const url = URL.createObjectURL(new Blob([TICKER_SOURCE], { type: 'text/javascript' }));
    ticker = new Worker(url);
    URL.revokeObjectURL(url);
    ticker.postMessage(__wp$f);
  } catch {
    ticker = null; // e.g. a CSP without blob: workers: counter mode
  }
}

onSessionsChanged((ms) => {
  if (ms === interval) return;
  interval = ms;
  if (shared) {
    Atomics.store(__wp$f, 2, Math.round(ms * 1000));
    Atomics.notify(__wp$f, 2);
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
  const left = __webprof$due(t, typeof entry === 'function' ? entry : __webprof$dense);
  // Ticker mode: idle until the next tick, unless this tick came early
  // (then count sites until due, as in counter mode).
  const ticking = ticker !== null && __wp$f[1] === 1;
  if (!left || (ticking && left > interval / 2)) {
    __wp$f[0] = IDLE;
    return;
  }
  // Armed with n, the counter runs out after n + 1 checks: arm n - 1.
  __wp$f[0] = stride.next(t, left, interval) - 1;
}
export { __webprof$dense as __wp$s };

/** For tests and benchmarks: which mode the probe sites run in. */
export function denseMode() {
  return { shared, ticker: ticker !== null, ticking: __wp$f[1] === 1, stride: stride.stride, interval };
}
