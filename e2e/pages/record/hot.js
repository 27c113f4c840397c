// A 40 ms hot loop every 45 ms, as a page script (hot-external.html) or as a
// dedicated worker's script (hot-worker.html).
function hotExternal() {
  const end = performance.now() + 40;
  let x = 0;
  while (performance.now() < end) {
    x += Math.sqrt(x + 1);
  }
  return x;
}
setInterval(hotExternal, 45);
