// A module worker that profiles itself with the polyfill and posts its trace.
import * as webprof from '/dist/webprof.mjs';
import { runSplit } from '/build/e2e/fidelity/split.mjs';

await webprof.ready;
const p = new webprof.Profiler({ sampleInterval: 1, maxBufferSize: 10000, backend: 'polyfill' });
runSplit(10, 3, 2, 1);
const trace = await p.stop();
postMessage({ trace, backend: p.backend, href: location.href });
