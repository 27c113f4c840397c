// Loads the core and records a short polyfill trace, or reports why not.
export async function record(ready, Profiler, probe) {
  try {
    await ready;
  } catch (e) {
    return { error: { name: e.name, message: e.message } };
  }
  const profiler = new Profiler({ sampleInterval: 1, maxBufferSize: 1000, backend: 'polyfill' });
  function cspHotLoop() {
    const end = performance.now() + 30;
    while (performance.now() < end) probe();
  }
  cspHotLoop();
  const trace = await profiler.stop();
  return { samples: trace.samples.length, hot: trace.frames.some((f) => f.name === 'cspHotLoop') };
}
