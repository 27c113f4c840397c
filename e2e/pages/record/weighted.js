// Three functions whose CPU time per tick is 24, 12 and 4 ms: a profile of
// this page ranks them weightedHeavy > weightedMedium > weightedLight in
// every format (tests/js/pprof.test.mjs).
function weightedHeavy() {
  const end = performance.now() + 24;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  return x;
}
function weightedMedium() {
  const end = performance.now() + 12;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  return x;
}
function weightedLight() {
  const end = performance.now() + 4;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  return x;
}
function weightedTick() {
  const r = weightedHeavy() + weightedMedium() + weightedLight();
  document.getElementById('out').textContent = String(r);
  setTimeout(weightedTick, 2);
}
setTimeout(weightedTick, 0);
