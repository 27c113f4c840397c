// The machine's own floor for ticker mode's spacing: how regularly a thread
// that waits for a 1 ms schedule (as js/profiler/dense.mjs's ticker does,
// Atomics.wait) runs while another thread is busy — in Node, no browser.
// A thread that spins instead of waiting shows what preemption alone does
// (on a VM: steal time). Printed per run: p50/p99/max of the gaps between
// ticks and how many exceed 2 ms, and the CPU steal the kernel counted
// (/proc/stat) during the run. Printed only (docs/BENCHMARKS.md "The
// machine's floor for a 1 ms tick").
//   node tests/bench/tick_floor.mjs [runs = 3] [ticks = 2000]
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

const runs = Number(process.argv[2] || 3);
const ticks = Number(process.argv[3] || 2000);

const TICKER = `
const { workerData: [sab, ticks, spin] } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const f = new Int32Array(sab, 0, 2);
const t = new Float64Array(sab, 8, ticks);
let next = performance.now();
for (let i = 0; i < ticks; i++) {
  next += 1;
  for (let now = performance.now(); now < next; now = performance.now()) if (!spin) Atomics.wait(f, 0, 0, next - now);
  t[i] = performance.now();
}
Atomics.store(f, 1, 1);`;

function steal() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    return Number(cpu[8]); // user nice system idle iowait irq softirq steal (jiffies, 10 ms)
  } catch {
    return NaN;
  }
}

for (const spin of [false, true])
  for (let r = 0; r < runs; r++) {
    const sab = new SharedArrayBuffer(8 + 8 * ticks);
    const s0 = steal();
    const w = new Worker(TICKER, { eval: true, workerData: [sab, ticks, spin] });
    const f = new Int32Array(sab, 0, 2);
    let x = 0;
    while (Atomics.load(f, 1) === 0) x++; // the page's busy main thread
    await w.terminate();
    const t = new Float64Array(sab, 8, ticks);
    const gaps = [];
    for (let i = 1; i < ticks; i++) gaps.push(t[i] - t[i - 1]);
    const over = gaps.filter((g) => g > 2).length;
    gaps.sort((a, b) => a - b);
    const q = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))].toFixed(2);
    console.log(
      `${spin ? 'spinning' : 'waiting '} thread, run ${r + 1}: gaps p50 ${q(0.5)} p99 ${q(0.99)} max ${q(1)} ms, ` +
        `${over} of ${gaps.length} over 2 ms; steal ${(steal() - s0) * 10} ms of CPU`,
    );
  }
