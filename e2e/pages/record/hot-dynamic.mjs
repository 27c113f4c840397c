// A 40 ms hot loop, reached through import() from hot-module.mjs.
export function hotModule() {
  const end = performance.now() + 40;
  let x = 0;
  while (performance.now() < end) {
    x += Math.sqrt(x + 1);
  }
  return x;
}
