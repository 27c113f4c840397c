// The page side of dense sampling with no build step: the drop-in
// `<script src=".../webprof.js" data-polyfill data-dense>` defines the two
// globals the inserted checks call and registers webprof's service worker
// (js/service-worker/sw.mjs, shipped as dist/webprof-sw.js), which rewrites
// this page's scripts as they are fetched.
//
// First visit: a service worker controls only the loads that start after it
// is active, so the page that registers it runs unrewritten. `denseReady`
// says which case this load is: true when this document came through the
// worker (it marks it with `Server-Timing: webprof-dense`); false otherwise,
// once the worker is active — the console then says that a reload is
// sampled densely.
//   data-dense            the worker's URL (default /webprof-sw.js: served
//                         at the site's root, it may control every page)
//   data-dense-scope      its scope (default: the worker's folder; a wider
//                         scope needs the `Service-Worker-Allowed` header)
//   data-dense-isolate    serve this page cross-origin isolated (COOP
//                         same-origin + COEP credentialless, or the value
//                         "require-corp"): its checks then run in ticker
//                         mode, time-faithful (js/profiler/dense.mjs). What
//                         that changes for the page: docs/ARCHITECTURE.md.
import { __wp$f, __wp$p, __wp$s } from '../profiler/dense.mjs';

const tag = typeof document !== 'undefined' ? document.currentScript : null;
const wanted = !!(tag && tag.hasAttribute && tag.hasAttribute('data-dense'));

/** Resolves true when this document's scripts were rewritten for dense sampling. */
export const denseReady = wanted ? setUp(tag) : Promise.resolve(false);

function rewrittenByWorker() {
  try {
    const nav = performance.getEntriesByType('navigation')[0];
    return !!nav && (nav.serverTiming || []).some((e) => e.name === 'webprof-dense');
  } catch {
    return false;
  }
}

// Resolves once the registration has an active worker (a reload is then
// served by it).
function activated(reg) {
  const w = reg.installing || reg.waiting;
  if (!w || reg.active) return undefined;
  return new Promise((resolve) => {
    w.addEventListener('statechange', () => {
      if (w.state === 'activated' || w.state === 'redundant') resolve();
    });
  });
}

function setUp(script) {
  for (const [name, value] of [
    ['__wp$f', __wp$f],
    ['__wp$s', __wp$s],
    ['__wp$p', __wp$p],
  ])
    Object.defineProperty(globalThis, name, { value, configurable: true });
  const done = rewrittenByWorker();
  const sw = typeof navigator !== 'undefined' && navigator.serviceWorker;
  if (!sw) {
    if (!done)
      console.warn('webprof: data-dense needs service workers (a secure context); sampling stays sparse');
    return Promise.resolve(done);
  }
  const url = new URL(script.getAttribute('data-dense') || '/webprof-sw.js', location.href);
  url.searchParams.set('webprof', script.src);
  if (script.hasAttribute('data-dense-isolate'))
    url.searchParams.set(
      'isolate',
      script.getAttribute('data-dense-isolate') === 'require-corp' ? 'require-corp' : 'credentialless',
    );
  const scope = script.getAttribute('data-dense-scope');
  return sw
    .register(url.href, scope ? { scope } : undefined)
    .then(activated)
    .then(
      () => {
        if (!done)
          console.info(
            'webprof: the dense-sampling service worker is installed; reload the page to sample inside synchronous code',
          );
        return done;
      },
      (e) => {
        console.warn(
          `webprof: the dense-sampling service worker could not be registered (${e && e.message})`,
        );
        return done;
      },
    );
}
