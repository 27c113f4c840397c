// Top-level code that runs long enough for the native sampler.
const until = performance.now() + 60;
let spinCount = 0;
while (performance.now() < until) {
  spinCount++;
}
