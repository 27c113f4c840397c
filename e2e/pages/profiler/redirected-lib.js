// Loaded through /redirect on the page's origin, landing on the second origin.
function redirectedWork(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x = window.spinStep(x);
  return x;
}
