// Served from the second origin with CORS and loaded with crossorigin: visible.
function corsWork(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x = window.spinStep(x);
  return x;
}
