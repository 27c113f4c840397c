// The drop-in script's global, as a page that loads dist/webprof.js sees it
// (the type-only import brings the declaration and emits nothing).
import type {} from 'webprof/script';
export async function dropIn(): Promise<number> {
  await webprof.ready;
  const p = new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 100 });
  return (await p.stop()).samples.length;
}
