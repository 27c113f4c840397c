import { ready, Profiler, probe } from '/dist/webprof.mjs';
import { record } from './record.mjs';
window.result = record(ready, Profiler, probe);
