// A classic worker that profiles itself with the polyfill (drop-in build)
// and posts its trace. importScripts gives no script URL: point at the Wasm.
self.webprofWasmUrl = '/dist/webprof-core.wasm';
importScripts('/dist/webprof.js');

function classicStep(x) {
  return x + 1;
}
const step = webprof.wrap(classicStep);
function classicWork(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) {
    x = step(x);
  }
  return x;
}

webprof.ready.then(async () => {
  const p = new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 10000, backend: 'polyfill' });
  classicWork(40);
  const trace = await p.stop();
  postMessage({ trace, backend: p.backend, href: location.href });
});
