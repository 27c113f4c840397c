// The agent: webprof as it runs inside a page (or a worker) that Node
// profiles, and the functions Node evaluates there to start and stop.
//
// The agent is the classic build (dist/webprof.js, followed by its tools
// module's JS, dist/webprof-tools.js) with its Wasm core inlined as a data: URL, so nothing is fetched from the page's origin; it hides
// itself behind one non-enumerable global (`__webprof__`) and defines the
// the globals the checks of rewritten scripts use (`__wp$f`, `__wp$p`; `__wp$s`
// for those an older transform wrote).
import { readFile } from 'node:fs/promises';
import { WORKER_MARK, watchWorkers } from './rewrite.mjs';

export const HIDDEN = '__webprof__';

let agentCache = null;
export async function agentSource() {
  if (!agentCache) {
    const [script, toolsJs, wasm, tools] = await Promise.all([
      readFile(new URL('./webprof.js', import.meta.url), 'utf8'),
      readFile(new URL('./webprof-tools.js', import.meta.url), 'utf8'),
      readFile(new URL('./webprof-core.wasm', import.meta.url)),
      readFile(new URL('./webprof-tools.wasm', import.meta.url)),
    ]);
    const data = (bytes) => `data:application/wasm;base64,${bytes.toString('base64')}`;
    // webprof-tools.js right after webprof.js takes the slot that one offers
    // (js/core/tools-js-classic.mjs): nothing is fetched for it either.
    agentCache = { script: `${script}\n${toolsJs}`, wasmUrl: data(wasm), toolsUrl: data(tools) };
  }
  return agentCache;
}

/**
 * The agent's script. autoStart (Profiler options) profiles the top-level
 * document, or a worker, from its first script on; nativeAllowed tells the
 * 'auto' backend whether this document may use the native Profiler, so it
 * never has to try (a try logs a policy violation in the console);
 * markWorkers (where the route serves the page, js/node/rewrite.mjs) starts
 * dedicated workers from marked URLs, so the route knows their scripts.
 */
export function agentScript(
  { script, wasmUrl, toolsUrl },
  { autoStart = null, nativeAllowed, markWorkers = false } = {},
) {
  // `var webprof` of the classic build stays local to this function.
  const main = '(typeof document === "undefined" || globalThis.top === globalThis)';
  return `(() => {
  if (globalThis.${HIDDEN}) return;
  Object.defineProperty(globalThis, 'webprofWasmUrl', { value: ${JSON.stringify(wasmUrl)}, configurable: true });
  Object.defineProperty(globalThis, 'webprofToolsWasmUrl', { value: ${JSON.stringify(toolsUrl)}, configurable: true });
  ${nativeAllowed === undefined ? '' : `Object.defineProperty(globalThis, 'webprofNativeProfiler', { value: ${JSON.stringify(nativeAllowed ? 'allowed' : 'denied')}, configurable: true });`}
  ${script}
  // Stay private: the page's own webprof (if any) keeps its own core and
  // probes windows instead of joining the agent's (js/core/page.mjs).
  const page = globalThis[Symbol.for('webprof.page')];
  if (page && page.api.ready === webprof.ready) delete globalThis[Symbol.for('webprof.page')];
  Object.defineProperty(globalThis, '${HIDDEN}', { value: webprof, configurable: true });
  // The checks the transform inserts into rewritten scripts use these.
  Object.defineProperty(globalThis, '__wp$f', { value: webprof.__wp$f, configurable: true });
  Object.defineProperty(globalThis, '__wp$s', { value: webprof.__wp$s, configurable: true });
  Object.defineProperty(globalThis, '__wp$p', { value: webprof.__wp$p, configurable: true });
  webprof.ready.finally(() => { delete globalThis.webprofWasmUrl; delete globalThis.webprofToolsWasmUrl; });
  ${markWorkers ? `if (typeof document !== 'undefined') (${watchWorkers.toString()})(${JSON.stringify(WORKER_MARK)});` : ''}
  if (typeof document !== 'undefined' && globalThis.top === globalThis)
    addEventListener('beforeunload', (ev) => (${leaveDocument.toString()})(webprof, ev, ${stopInPage.toString()}, ${startInPage.toString()}));
  ${autoStart ? `if (${main}) (${startInPage.toString()})(webprof, ${JSON.stringify(autoStart)});` : ''}
})();`;
}

// The binding through which a leaving document hands its profile to Node
// (js/node/documents.mjs): calls from the page still reach Node while its
// navigation is pending, calls from Node into it do not (measured:
// docs/ARCHITECTURE.md).
export const DOCUMENT_BINDING = '__webprof_document';

/**
 * Runs in the page at `beforeunload` (top-level document): says whether a
 * profile runs here ('leaving'), then stops it as stopProfile would and
 * sends its data ('left'), while Node's route holds the navigation request.
 * A page that asked to stay (a beforeunload prompt) is profiled on.
 */
export function leaveDocument(w, ev, stop, start) {
  try {
    const send = globalThis.__webprof_document;
    if (typeof send !== 'function') return;
    const session = w.__session;
    send('leaving', session ? 'profiling' : 'idle');
    if (!session) return;
    stop(w)
      .then(
        (data) => send('left', JSON.stringify(data)),
        (e) => send('left', JSON.stringify({ error: String((e && e.message) || e) })),
      )
      .then(() => {
        if ((ev.defaultPrevented || ev.returnValue) && !w.__session) return start(w, session.opts);
      })
      .catch(() => {});
  } catch {
    /* never into the page */
  }
}

/**
 * Runs in the page: starts a Profiler and a probes window. Resolves once the
 * polyfill's ticker runs (where memory can be shared, js/profiler/dense.mjs:
 * its Worker starts with the first session, when the page's thread is free),
 * at most 1 s later, so a profile Node starts is in ticker mode from its
 * first sample.
 */
export async function startInPage(w, opts) {
  const session = { opts, startedAt: performance.now() };
  session.profiler = new w.Profiler({
    sampleInterval: opts.sampleInterval,
    maxBufferSize: opts.maxBufferSize,
    backend: opts.backend,
  });
  if (typeof w.start === 'function') w.start();
  w.__session = session;
  const mode = () => (typeof w.denseMode === 'function' ? w.denseMode() : null);
  for (
    let i = 0;
    i < 100 && session.profiler.backend === 'polyfill' && mode()?.ticker && !mode().ticking;
    i++
  )
    await new Promise((resolve) => setTimeout(resolve, 10));
  return session;
}

/** Runs in the page: stops both and returns plain data. */
export async function stopInPage(w) {
  const session = w.__session;
  if (!session) throw new Error('webprof: no profile is running in this page');
  w.__session = null;
  // Which mode the polyfill's checks ran in (counter or the time-faithful
  // ticker, js/profiler/dense.mjs), as the profile ends.
  const denseMode =
    session.profiler.backend === 'polyfill' && typeof w.denseMode === 'function' ? w.denseMode().mode : null;
  // The sampler stops first: ending the probes window runs webprof's core,
  // which an engine's own sampler would record as the page's time.
  const stopped = session.profiler.stop();
  let probes = null;
  if (typeof w.end === 'function') {
    w.end((aggregates, marks, traces) => {
      probes = { aggregates: [...aggregates], marks, traces };
    });
  }
  const trace = await stopped;
  // Probe info objects are the page's: keep what survives structured cloning.
  return JSON.parse(
    JSON.stringify({
      trace,
      probes,
      backend: session.profiler.backend,
      denseMode,
      sampleInterval: session.profiler.sampleInterval,
      startedAt: session.startedAt,
      // Where and on which time base: Node joins the documents a page went
      // through on their time origins (js/node/documents.mjs).
      url: typeof location === 'object' ? location.href : '',
      timeOrigin: performance.timeOrigin,
    }),
  );
}
