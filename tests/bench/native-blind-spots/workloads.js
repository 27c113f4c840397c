// Workloads whose time is all in one named function, each a loop over one
// kind of work (tests/bench/native_blind_spots.mjs): a profiler that tells
// the truth puts (almost) every sample of a run in that function.
'use strict';
const csv = Array.from({ length: 2000 }, (_, i) => 'ab' + i).join(',');
const words = csv.replace(/,/g, ' ');
const workloads = {
  // Plain JavaScript: arithmetic in a loop.
  jsLoop() {
    let x = 0;
    for (let i = 0; i < 20000; i++) x += (i * i) % 7;
    return x;
  },
  // RegExp.prototype.exec with the sticky flag: a tokenizer's loop.
  stickyExec() {
    const r = /ab\d+,?/y;
    let n = 0;
    while (r.exec(csv)) n++;
    return n;
  },
  // String.prototype.split by a RegExp.
  splitRegExp() {
    return csv.split(/,/).length;
  },
  // String.prototype.match with a global RegExp.
  matchGlobal() {
    return csv.match(/\d+/g).length;
  },
  // String.prototype.replace with a callback.
  replaceCallback() {
    return csv.replace(/b(\d)/g, (m, d) => d).length;
  },
  // String.prototype.replace with a replacement string.
  replaceString() {
    return words.replace(/b(\d)/g, '$1').length;
  },
  // Allocation: short-lived objects (the garbage collector runs).
  allocate() {
    let keep = [];
    for (let i = 0; i < 2000; i++) keep.push({ a: [i, i + 1], b: 'x' + i });
    return keep.length;
  },
};
// Runs `name` for `ms` (ms) and returns how many times it ran.
window.runFor = (name, ms) => {
  const f = workloads[name];
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    f();
    n++;
  }
  return n;
};
window.workloadNames = Object.keys(workloads);
// The native Profiler's trace of `name` run for `ms`.
window.nativeProfile = async (name, ms) => {
  const p = new Profiler({ sampleInterval: 10, maxBufferSize: 1e6 });
  window.runFor(name, ms);
  return p.stop();
};
