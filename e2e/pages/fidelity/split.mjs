// A workload with a known time split: three functions that each run for a
// measured duration per round. Built through the dense-sampling transform.
export function partA(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) {
    x++;
  }
  return x;
}
export function partB(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) {
    x++;
  }
  return x;
}
export function partC(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) {
    x++;
  }
  return x;
}
// Runs `rounds` rounds of A, B, C; returns the measured time of each (ms).
export function runSplit(rounds, msA, msB, msC) {
  const truth = { partA: 0, partB: 0, partC: 0 };
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    partA(msA);
    const t1 = performance.now();
    partB(msB);
    const t2 = performance.now();
    partC(msC);
    const t3 = performance.now();
    truth.partA += t1 - t0;
    truth.partB += t2 - t1;
    truth.partC += t3 - t2;
  }
  return truth;
}
