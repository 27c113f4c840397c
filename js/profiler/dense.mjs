// The runtime of dense probe sites inserted by the build-time transform
// (js/transform/): `if(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;`
// at every function entry (but a leaf's: no call, no loop), exit and loop
// body of the transformed code (a body that calls nothing gets the light
// check at its exits, `__wp$f[1]>0` without the decrement: a pending tick
// only); the `delete` reaches __wp$p's trap, which
// runs __wp$s (below). In the transformed module __wp$f is a module-level
// `var` set from this module's export before its first statement (cheaper
// to read than the import; `__wp$f&&` skips a check that runs before it is
// set, in an import cycle).
//
// The check is one decrement of a typed-array element and a comparison with
// its neighbour; only when the counter goes below the threshold does __wp$s
// run. Two ways to get there:
//  - counter mode (default): the threshold is 0; __wp$s reads the clock,
//    samples if due and re-arms the counter with the stride of stride.mjs (a
//    hot site costs a decrement; at a steady rate of checks the first check
//    at or after the due time samples);
//  - ticker mode (wherever the page may share memory with a Worker: a
//    cross-origin isolated page, or a browser started with shared memory
//    allowed — webprof record, the Playwright fixture): the slots live in a
//    SharedArrayBuffer and a Worker ticks once per interval: it counts the
//    tick, writes its time and raises the threshold. __wp$s lowers it again
//    and turns every tick since the last one it took into a sample,
//    timestamped at its tick, all with the one stack captured there
//    (sampler.mjs __webprof$ticked): the ticks fell in the stretch since the
//    previous check, which ran in the function the check is in.
// Why a threshold the page never writes on its fast path: the page's loads
// are plain, so an optimizing compiler may keep what a check stored for the
// next check's load (V8 does in a loop without calls: a per-character loop
// saw 1–63 % of its ticks when the Worker wrote the counter itself) or hoist
// a load the loop never stores (SpiderMonkey: a load-only check saw 0.3 %).
// The threshold is only read by the loop and may change in its slow-path
// call, so both engines load it every time: every tick is seen at the first
// check after it (tests/bench/ticker_visibility.mjs, ticker_race_probe.mjs).
// With no session running the counter is parked at IDLE and a session
// start re-arms it at once (sampler.onSessionsChanged).
//
// The checks are guarded by a global this module defines, `__wp$on`: 0
// until a session runs, so V8 folds the guard to a constant and the
// optimized code skips the checks (a page that never profiles pays their
// bytecode, not their run time). A session start makes it non-zero — the
// code that folded it deoptimizes once and from then on reads it — and it
// counts the webprof copies in this realm with a session running, so one
// copy stopping does not switch off another's checks. Checks emitted by
// older transforms run as they always did: `if(--__wp$f[0]<0)__wp$s();`
// (before the guard), `if(__wp$on&&--__wp$f[0]<0)__wp$s();` (before the
// threshold; the ticker also stores -1 into the counter for them),
// `if(__wp$on&&--__wp$f[0]<__wp$f[1])__wp$s();` (before the `delete`) and
// `if(__wp$on&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;` (reading the import
// itself: the export keeps its name).
import {
  __webprof$due,
  __webprof$ticked,
  passedDueTimes,
  now,
  onSessionsChanged,
  useTicks,
} from './sampler.mjs';
import { Stride } from './stride.mjs';

// Both within V8's small integers (31 bits): a value past them where
// optimized code expects one deopts it — a threshold of 2^31 - 1 made the
// first ticks after a switch from counter mode go unseen (tests/bench/
// ticker_race_probe.mjs: 37–116 of 500–700 ticks, 0–4 with these).
/** The counter parked: no check reaches __wp$s for 2^29 checks. */
export const IDLE = 1 << 29;
// The threshold at a tick: above any counter value.
export const RAISED = IDLE + 1;
// Browsers expose the constructor only where a SharedArrayBuffer may be
// posted to a Worker (crossOriginIsolated, or Chromium's
// SharedArrayBuffer feature switch); where posting fails all the same
// (startTicker), the checks stay in counter mode.
const shared = typeof SharedArrayBuffer === 'function' && typeof Worker === 'function';

// The ticker's ring of tick times (a power of two): a stretch without checks
// longer than RING - 1 ticks gets the newest RING - 1 (≈1 s at 1 ms).
export const RING = 1024;
// Int32 slots: [0] the probe-site counter, [1] the threshold it is compared
// with (0; in ticker mode the ticker raises it to RAISED at a tick); in
// ticker mode also [2] = the interval it ticks at (µs, 0 = parked), [3] = 0
// (the ticker sleeps on it: a worker may lack the constructor), [4] = ticks
// so far (the ticker's), [5] = ticks taken (the page's), [6] = 1 once the
// ticker runs. Then, from byte 32, RING f64 tick times on the page's clock.
const memory = shared ? new SharedArrayBuffer(32 + 8 * RING) : new ArrayBuffer(32);
/** The probe-site counter ([0]), its threshold ([1]) and, in ticker mode, the ticker's slots. */
export const __wp$f = new Int32Array(memory, 0, 8);
__wp$f[0] = IDLE;
const ring = shared ? new Float64Array(memory, 32, RING) : null;

let interval = 0;
const stride = new Stride();
const GUARD = '__wp$on';
// Not enumerable: the drop-in defines one global a page sees (`webprof`);
// V8 still folds the constant property cell (tests/bench/check-cost/
// deopt_probe.mjs: 334 code objects marked at the first session), and later
// assignments keep the attributes.
try {
  if (typeof globalThis[GUARD] !== 'number')
    Object.defineProperty(globalThis, GUARD, {
      value: 0,
      writable: true,
      configurable: true,
      enumerable: false,
    });
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
// no session runs ([2] = 0) until the page posts to it again. A change of
// interval (or a stop) notifies [3], where it sleeps between ticks: it
// reschedules from then instead of sleeping out the old interval.
// Ticks follow a schedule (no drift). When the OS runs the ticker's thread
// late, the ticks it missed are written at their due times (passedDueTimes), as
// counter mode takes the due times a check passed (sampler.mjs): a late
// thread left gaps of up to 7 ms between ticks at 1 ms (p99 up to 4 ms on a
// 2-core machine: tests/bench/ticker_gaps.mjs, docs/BENCHMARKS.md).
// Held up longer than CATCH_UP_MS, the schedule restarts (the page's thread
// was most likely held up too: no samples are made up for a stall).
// A tick raises the threshold ([1]), which only __wp$s lowers; it also
// stores -1 into the counter for checks emitted before the threshold. Their
// decrement is not atomic: a store landing between its read and its write
// is overwritten. So an eighth of an interval after a store the ticker looks
// again: a tick not taken ([5] behind [4]) with the counter no longer
// negative was lost that way; it stores again.
/** How far the ticker catches up on ticks its thread was late for (ms). */
export const CATCH_UP_MS = 50;
// The Worker's code: self-contained (it runs as the source text of this
// function, minified with the rest).
function tickerMain(ring, raised, catchUp, passedDueTimes) {
  let f = null;
  let times = null;
  let offset = 0;
  let next = 0;
  let running = false;
  const due = new Float64Array(ring);
  const again = new MessageChannel();
  again.port1.onmessage = tick;
  self.onmessage = (e) => {
    if (f === null) {
      f = new Int32Array(e.data[0], 0, 8);
      times = new Float64Array(e.data[0], 32, ring);
      offset = performance.timeOrigin - e.data[1];
      Atomics.store(f, 6, 1);
    }
    if (!running) {
      running = true;
      next = performance.now();
      tick();
    }
  };
  function tick() {
    const end = performance.now() + 50;
    while (performance.now() < end) {
      const us = Atomics.load(f, 2);
      if (us === 0) {
        running = false;
        return;
      }
      const ms = us / 1000;
      let t = performance.now();
      // The next due time on the schedule; held up longer than `catchUp`,
      // the schedule restarts from now.
      next = next + ms < t - catchUp ? t : next + ms;
      let look = t + ms / 8;
      while (t < next) {
        if (t >= look && Atomics.load(f, 5) !== Atomics.load(f, 4) && Atomics.load(f, 0) >= 0) {
          Atomics.store(f, 0, -1);
          look = t + ms / 8;
        }
        Atomics.wait(f, 3, 0, Math.min(next, look > t ? look : next) - t);
        t = performance.now();
        if (Atomics.load(f, 2) !== us) break;
      }
      // The interval changed (the page notifies slot 3): no tick at the old
      // schedule; the next comes one new interval from now.
      if (t < next) {
        next = t;
        continue;
      }
      // Every tick due by now (at most catchUp ms of them), the last at now.
      const n = passedDueTimes(next, ms, t, Math.floor(catchUp / ms) + 1, due);
      for (let j = 0; j < n; j++) {
        const c = Atomics.load(f, 4);
        times[c & (ring - 1)] = due[j] + offset;
        Atomics.store(f, 4, c + 1);
      }
      next += Math.floor((t - next) / ms) * ms;
      Atomics.store(f, 1, raised);
      Atomics.store(f, 0, -1);
    }
    again.port2.postMessage(0);
  }
}
const TICKER_SOURCE = `(${tickerMain})(${RING}, ${RAISED}, ${CATCH_UP_MS}, ${passedDueTimes})`;

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
    ticker.postMessage([memory, performance.timeOrigin]);
  } catch {
    // A CSP without blob: workers, or memory that may not be shared
    // (DataCloneError): counter mode.
    if (ticker) ticker.terminate();
    ticker = null;
  }
}

let taken = 0; // ticks turned into samples (or dropped), = [5]
let lastTick = -Infinity;
const ticking = () => ticker !== null && __wp$f[6] === 1;
// The ticks since the last call: their times into out[0..n) (in order, none
// after `t`), n returned. Parks the counter and lowers the threshold first:
// a tick after that raises it again.
function takeTicks(out, t) {
  __wp$f[0] = IDLE;
  Atomics.store(__wp$f, 1, 0);
  const count = Atomics.load(__wp$f, 4);
  if (count === taken) return 0;
  let n = (count - taken) | 0;
  taken = count;
  Atomics.store(__wp$f, 5, count);
  if (n <= 0) return 0;
  if (n > RING - 1) n = RING - 1;
  for (let j = 0; j < n; j++) {
    let x = ring[(count - n + j) & (RING - 1)];
    // The two clocks agree to the platform's precision: keep the order.
    if (!(x >= lastTick)) x = lastTick;
    if (x > t) x = t;
    out[j] = lastTick = x;
    late[lateAt++ & (LATE - 1)] = t - x;
  }
  return n;
}
// How late the ticks were taken (check time - tick time, ms): the last LATE.
const LATE = 4096;
const late = new Float64Array(LATE);
let lateAt = 0;
function lateness() {
  const a = late.slice(0, Math.min(lateAt, LATE)).sort();
  const q = (p) => a[Math.floor(p * a.length)] || 0;
  return { p50: q(0.5), p99: q(0.99), ticks: lateAt };
}
useTicks({ ticking, take: takeTicks });

onSessionsChanged((ms) => {
  if (ms === interval) return;
  interval = ms;
  guard(ms > 0);
  if (shared) {
    Atomics.store(__wp$f, 2, Math.round(ms * 1000));
    // A ticker asleep until its old interval's next tick wakes now: a 1 ms
    // session after a 1000 ms one would otherwise get no tick for up to 1 s.
    Atomics.notify(__wp$f, 3);
    if (ms) startTicker();
  }
  if (!ms) {
    __wp$f[0] = IDLE;
    if (shared) Atomics.store(__wp$f, 1, 0);
    return;
  }
  stride.reset();
  __wp$f[0] = 0; // the next site samples (and re-arms)
});

/**
 * The slow path of a probe site: in ticker mode, the ticks since the last
 * sample become samples; in counter mode, sample if due and re-arm the
 * counter.
 * @param {Function} [entry] the outermost webprof function on the stack (a
 *   platform-call wrapper, js/profiler/platform-sites.mjs); the inserted
 *   checks call it with none
 */
function __webprof$dense(entry) {
  const outer = typeof entry === 'function' ? entry : __webprof$dense;
  if (ticking()) {
    __webprof$ticked(outer);
    return;
  }
  const t = now();
  const left = __webprof$due(t, outer);
  if (!left) {
    __wp$f[0] = IDLE;
    return;
  }
  // Armed with n, the counter runs out after n + 1 checks: arm n - 1.
  __wp$f[0] = stride.next(t, left, interval) - 1;
}
export { __webprof$dense as __wp$s };

// The checks' slow path: `delete __wp$p.s` calls this trap. Not a call in
// the check's code: V8 records a call's target per call site and its
// optimizing tiers turn a call site that never ran into a deoptimization
// ("Insufficient type feedback for call", even to a constant target), so
// the first tick taken at a check threw its function back to unoptimized
// code (35–37 functions in a first 1 s session on marked). `delete` has no
// feedback slot: the optimized code keeps a generic builtin call, which
// reaches the trap (0–1 such deoptimizations a session, at the same cost:
// docs/BENCHMARKS.md "The checks' slow path and V8's feedback"). The trap's
// frame is webprof's own, and the capture starts below it.
function __webprof$trap() {
  __webprof$dense(__webprof$trap);
  return true; // `delete` in strict code throws on false
}
/** The checks' slow path: a Proxy whose deleteProperty trap runs __wp$s. */
export const __wp$p = new Proxy({}, { deleteProperty: __webprof$trap });

/**
 * Which mode the probe sites run in: `mode` is 'ticker' once the ticker
 * Worker runs, else 'counter' (results and benchmarks report it). In ticker
 * mode `lateness` says how long after its tick each of the last 4096 ticks
 * was taken (ms; its sample is timestamped at the tick).
 */
export function denseMode() {
  return {
    mode: ticking() ? 'ticker' : 'counter',
    shared,
    ticker: ticker !== null,
    ticking: ticking(),
    stride: stride.stride,
    interval,
    lateness: lateness(),
  };
}
