// Served from the second origin: without crossorigin + CORS its frames are muted.
function mutedWork(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x = window.spinStep(x);
  return x;
}
