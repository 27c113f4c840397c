// When a probe-site counter reads the clock: the one stride rule of the
// polyfill's task probes (sampler.mjs `probe`) and the transform's dense
// checks (dense.mjs `__wp$s`).
//
// A check is a decrement; only when its counter runs out does webprof read the
// clock (≈120 ns in Chromium, more than a hot function's body), so the counter
// is armed with a stride: the number of checks to let pass. The stride is a
// prediction from the rate the last checks came at — elapsed time over the
// checks counted since the previous read — of how many checks fit before
// the next sample is due, and at most interval/8 ahead so a rate that drops
// is noticed within an eighth of an interval's worth of checks. At a steady
// rate the read before the due time leaves less than one gap, the stride
// becomes 1 and the first check at or after the due time samples: late by at
// most the gap between two checks. Checks far apart (a slow loop, sparse
// tasks) give a stride of 1 at once, so every check reads the clock.
//
// This rule is JS, not the core's: probe sites run before the core is
// instantiated (samples are kept pending until it is), and a read must not
// cost a Wasm call more than the clock itself.

/** Upper bound of a stride (a check every ≈1 ns at 1 ms gives ≈1e6). */
export const MAX_STRIDE = 1 << 20;
/** A prediction grows at most this much per read (the clock is coarse: 5–100 µs, 1 ms in Firefox). */
const GROWTH = 4;

/** The clock-read schedule of one probe-site counter. */
export class Stride {
  constructor() {
    /** Checks per clock read as last armed. */
    this.stride = 1;
    /** When the clock was last read (ms); -Infinity: never, so the next read arms 1. */
    this.lastRead = -Infinity;
  }

  /** Forget the rate (a session starts after a pause): the next read arms 1. */
  reset() {
    this.stride = 1;
    this.lastRead = -Infinity;
  }

  /**
   * The clock was read at `t` after `stride` checks: the stride to arm next.
   * @param {number} t the clock just read (ms)
   * @param {number} left ms until the next sample is due
   * @param {number} interval the smallest running sampling interval (ms)
   */
  next(t, left, interval) {
    const elapsed = t - this.lastRead;
    this.lastRead = t;
    const horizon = Math.min(left, interval / 8);
    let n;
    // Nothing measurable elapsed (a coarse clock): the checks come fast.
    if (!(elapsed > 0)) n = this.stride * 2;
    else n = Math.floor((horizon * this.stride) / elapsed);
    if (n > this.stride * GROWTH) n = this.stride * GROWTH;
    this.stride = n < 1 ? 1 : n > MAX_STRIDE ? MAX_STRIDE : n;
    return this.stride;
  }
}
