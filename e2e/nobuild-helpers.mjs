// Helpers shared by the no-build-step specs in Chromium (Playwright) and
// Firefox ESR (puppeteer-core): not a spec, no tests here.

/**
 * In the page (`page.evaluate(pageProfile, [name, ms])`): awaits
 * `window.result` (the trace the page's own script took) or, given `ms`,
 * profiles the page for that long at 1 ms. Returns how many samples have
 * `name` on their stack, and the frames named `name`.
 */
export async function pageProfile([name, ms]) {
  let trace;
  if (ms === undefined) trace = await window.result;
  else {
    const profiler = new Profiler({ sampleInterval: 1, maxBufferSize: 10000 });
    await new Promise((resolve) => setTimeout(resolve, ms));
    trace = await profiler.stop();
  }
  let inside = 0;
  for (const s of trace.samples)
    for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
      if (trace.frames[trace.stacks[id].frameId].name === name) {
        inside++;
        break;
      }
  return {
    samples: trace.samples.length,
    inside,
    frames: trace.frames
      .filter((f) => f.name === name)
      .map((f) => ({ resource: trace.resources[f.resourceId], line: f.line, column: f.column })),
    backend: new Profiler({ sampleInterval: 10, maxBufferSize: 1 }).backend,
    denseReady: await window.webprof.denseReady,
  };
}

/**
 * In the page (e2e/pages/dense/worker.html): the worker profiles its hot
 * function; returns whether its script was rewritten, the counts and the
 * frames named `name` (e.g. hotWorker).
 */
export async function workerProfile(name) {
  const answer = await window.runWorker();
  if (answer.error) throw new Error(answer.error);
  const { trace, rewritten } = answer;
  let inside = 0;
  for (const s of trace.samples)
    for (let id = s.stackId; id !== undefined; id = trace.stacks[id].parentId)
      if (trace.frames[trace.stacks[id].frameId].name === name) {
        inside++;
        break;
      }
  return {
    rewritten,
    samples: trace.samples.length,
    inside,
    frames: trace.frames
      .filter((f) => f.name === name)
      .map((f) => ({ resource: trace.resources[f.resourceId], line: f.line, column: f.column })),
  };
}
