// Types of `webprof/script` (dist/webprof.js), the drop-in classic script: it defines one global, `webprof`, with
// the API of the `webprof` module. TypeScript pages that load it declare that with
// `import type {} from 'webprof/script'` (emits nothing).
import type * as api from './webprof.js';
declare global {
  const webprof: typeof api;
}
