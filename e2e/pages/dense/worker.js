function hotWorker() { let x = 0; for (let i = 0; i < 2e7; i++) { x += Math.sqrt(i); } return x; }
// A classic worker that profiles itself; its hot function is on line 1 (the
// `(` at column 19) and reads no clock: only rewritten code samples inside.
self.webprofWasmUrl = '/dist/webprof-core.wasm';
importScripts('/dist/webprof.js');
// A failure is posted back: a rejected handler alone would leave the page
// waiting with nothing to report. Each step is posted as it is reached, so a
// worker that stalls says where.
onmessage = async () => {
  const step = (name) => postMessage({ step: name });
  try {
    step('go received');
    const profiler = new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
    step('profiler started');
    hotWorker();
    step('hot function returned; stopping');
    const trace = await profiler.stop();
    postMessage({ trace, rewritten: typeof __wp$f === 'object' });
  } catch (e) {
    postMessage({ error: `in the worker: ${e && e.stack ? e.stack : e}` });
  }
};
