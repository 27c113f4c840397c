// What webprof changes in what a page loads, when Node controls loading
// (the Playwright fixture, `webprof record`): one route over every request.
//
//  - documents (top level and iframes): with `native`, served with
//    `Document-Policy: js-profiling` (Chromium's own sampler) and
//    `Server-Timing: js-profiling` (how 'auto' knows); with `dense`,
//    every inline <script> is passed through the sampling transform in place
//    (js/transform/html.mjs: lines and the columns before each check kept);
//  - scripts (classic, module, dynamic import(), importScripts): passed
//    through the sampling transform (js/transform/index.mjs);
//  - a dedicated worker's script: it loads the agent before any of its
//    code. Through the route, a classic worker's script URL is answered with
//    `importScripts(agent, url)`; the second request for the URL (from that
//    importScripts) gets the transformed script, so every position is the
//    original's. A module worker's script (and a classic one elsewhere:
//    rewrittenScript) is transformed and starts with `import agent;`
//    (`importScripts(agent);`) - it must run before the worker's imports,
//    and a module cannot import itself - so line 1's columns move by it;
//  - a later fetch of a rewritten URL (the polyfill reads its scripts'
//    sources to resolve frame positions) gets the rewritten text, whose
//    positions are the ones the stacks report.
// Whatever is left as it was is reported in `state.unsampled` with why: a
// transform status other than Ok, a script that is not JavaScript by its
// MIME type, a script with a Subresource Integrity hash (a rewritten file
// would be refused), inline scripts of a document whose CSP allows them by
// hash (a rewritten script would be blocked).
import { transformForSampling } from '../transform/index.mjs';
import { transformHtmlForSampling } from '../transform/html.mjs';

// The agent a worker loads, at a path no site uses, answered by the route.
export const WORKER_AGENT_PATH = '/__webprof__/worker-agent.js';
const JS_TYPE = /javascript|ecmascript/i;
const MAX_REWRITTEN = 256;

/** The per-target record of what the route did. */
export function newRewriteState(options) {
  return {
    native: !!options.native,
    dense: !!options.dense,
    workerAgent: options.workerAgent || null, // () => Promise<string>
    unsampled: [], // {url, reason}
    rewritten: new Map(), // url -> {body, headers}, the latest MAX_REWRITTEN
    integrity: new Set(), // absolute URLs of scripts with an integrity attribute
    workers: new Map(), // absolute URL -> 'classic' | 'module', told by the page's agent (latest 256)
  };
}

function report(state, url, reason) {
  if (!state.unsampled.some((u) => u.url === url && u.reason === reason))
    state.unsampled.push({ url, reason });
}

function remember(state, url, body, headers) {
  state.rewritten.delete(url);
  state.rewritten.set(url, { body, headers });
  if (state.rewritten.size > MAX_REWRITTEN) state.rewritten.delete(state.rewritten.keys().next().value);
}

// The network cannot tell a worker's script from a page's script, so the
// page's agent says which URLs it is about to start as workers: it calls
// this binding from its `Worker` wrapper, before the worker's request.
export const WORKER_BINDING = '__webprof_worker';
/** Runs in the page (agent): reports each new Worker's URL and type to Node. */
export function watchWorkers() {
  const W = globalThis.Worker;
  if (typeof W !== 'function') return;
  globalThis.Worker = new Proxy(W, {
    construct(target, args, newTarget) {
      // Looked up per call: Playwright may define the binding after the agent.
      const report = globalThis.__webprof_worker;
      if (typeof report === 'function')
        try {
          const type = args[1] && args[1].type === 'module' ? 'module' : 'classic';
          report(new URL(String(args[0]), document.baseURI).href, type);
        } catch {
          /* a URL the constructor itself will reject */
        }
      return Reflect.construct(target, args, newTarget);
    },
  });
}

/** Routes every request of `target` (a Page or a BrowserContext) through `state`. */
export async function routePageLoads(target, state) {
  await target.exposeBinding(WORKER_BINDING, (_source, url, type) => {
    state.workers.delete(url);
    state.workers.set(url, type);
    if (state.workers.size > MAX_REWRITTEN) state.workers.delete(state.workers.keys().next().value);
  });
  await target.route('**/*', async (route) => {
    try {
      await handle(route, state);
    } catch {
      // The fetch failed (the browser then reports it as the page's own
      // failure), or the page closed: leave the request to the browser.
      await route.fallback().catch(() => {});
    }
  });
}

async function handle(route, state) {
  const request = route.request();
  const url = request.url();
  const kind = request.resourceType();
  if (state.workerAgent && new URL(url).pathname === WORKER_AGENT_PATH) {
    return route.fulfill({ contentType: 'text/javascript', body: await state.workerAgent() });
  }
  if (kind === 'document') {
    // The document this navigation replaces still runs while its request
    // is held here: a profile running in it is collected first
    // (js/node/documents.mjs).
    if (state.beforeNavigation && request.isNavigationRequest()) {
      const frame = topFrame(request);
      if (frame) await state.beforeNavigation(frame.page());
    }
    return rewriteDocument(route, state);
  }
  if (kind === 'script') return rewriteScript(route, state);
  // A worker's importScripts() is not a 'script' to Chromium: its referrer
  // is the worker's script.
  if (kind === 'other' && state.workers.has(request.headers().referer))
    return rewriteScript(route, state, true);
  const kept = state.rewritten.get(url);
  if (kept && request.method() === 'GET' && (kind === 'fetch' || kind === 'xhr'))
    return route.fulfill({ status: 200, headers: kept.headers, body: kept.body });
  return route.fallback();
}

// The request's frame when it is a page's top-level frame, else null (an
// iframe, or a popup's first request, whose frame does not exist yet).
function topFrame(request) {
  try {
    const frame = request.frame();
    return frame.parentFrame() ? null : frame;
  } catch {
    return null;
  }
}

async function rewriteDocument(route, state) {
  if (!state.native && !state.dense) return route.fallback();
  const response = await route.fetch();
  const headers = { ...response.headers() };
  if (!state.dense || !response.ok() || !/html/i.test(headers['content-type'] || ''))
    return route.fulfill({ response, headers: documentHeaders(state, headers) });
  const r = await rewrittenDocument(state, route.request().url(), headers, await response.text());
  return route.fulfill({ response, headers: r.headers, body: r.body });
}

/** A document's response headers as webprof serves them (the native sampler's policy). */
export function documentHeaders(state, headers) {
  headers = { ...headers };
  if (state.native) headers['document-policy'] = 'js-profiling';
  // The mark the 'auto' backend reads instead of trying (js/polyfill.mjs).
  if (
    /js-profiling/.test(headers['document-policy'] || '') &&
    !/js-profiling/.test(headers['server-timing'] || '')
  )
    headers['server-timing'] = headers['server-timing']
      ? `${headers['server-timing']}, js-profiling`
      : 'js-profiling';
  return headers;
}

/**
 * An HTML document (an ok response) rewritten for dense sampling: its inline
 * scripts transformed in place. Also for loaders other than Playwright's
 * route (the WebKit proxy, js/node/webkit-record.mjs).
 */
export async function rewrittenDocument(state, url, headers, html) {
  headers = documentHeaders(state, headers);
  const r = await transformHtmlForSampling(html, { csp: headers['content-security-policy'], file: url });
  for (const s of r.skipped) report(state, `${url} (inline script at line ${s.line})`, s.reason);
  for (const src of r.integrity) {
    try {
      state.integrity.add(new URL(src, url).href);
    } catch {
      /* not a URL: the browser will not load it either */
    }
  }
  delete headers['content-length'];
  if (r.scripts > 0) remember(state, url, r.code, headers);
  return { headers, body: r.code };
}

// `imported`: requested by a worker's importScripts() (never a worker's own
// script; not JavaScript by its MIME type: not reported, it may be data).
async function rewriteScript(route, state, imported = false) {
  const request = route.request();
  const url = request.url();
  if (!state.dense) return route.fallback();
  // The binding's call and this request race: one turn lets the call land.
  await new Promise((r) => setImmediate(r));
  // Kept, not consumed: every worker started from the URL loads the agent.
  const worker = imported ? undefined : state.workers.get(url);
  if (!scriptMayChange(state, url)) return route.fallback();
  const response = await route.fetch();
  if (!response.ok()) return route.fulfill({ response });
  const js = JS_TYPE.test(response.headers()['content-type'] || '');
  if (imported && !js) return route.fulfill({ response });
  if (worker === 'classic' && state.workerAgent && js) {
    // Not remembered: a later fetch of the URL reads the worker's own
    // (transformed) text, which this importScripts() requests.
    const headers = { ...response.headers() };
    delete headers['content-length'];
    const agent = new URL(WORKER_AGENT_PATH, url).href;
    const body = `importScripts(${JSON.stringify(agent)}, ${JSON.stringify(url)});`;
    return route.fulfill({ response, headers, body });
  }
  const r = await rewrittenScript(state, url, response.headers(), await response.text(), worker);
  return r ? route.fulfill({ response, headers: r.headers, body: r.body }) : route.fulfill({ response });
}

/** False (and reported) for a script that must reach the page as it is. */
export function scriptMayChange(state, url) {
  if (!state.integrity.has(url)) return true;
  report(state, url, 'it has a Subresource Integrity hash (integrity attribute)');
  return false;
}

/**
 * A script (an ok response) passed through the sampling transform, or null
 * when it stays as it is; `worker` ('classic' | 'module') adds the agent.
 */
export async function rewrittenScript(state, url, responseHeaders, source, worker) {
  const headers = { ...responseHeaders };
  const type = headers['content-type'] || '';
  if (!JS_TYPE.test(type)) {
    report(state, url, `its MIME type is not JavaScript (${type || 'none'})`);
    return null;
  }
  // A page's own copy of webprof (its marker functions) is never rewritten:
  // its probe sites would sample webprof itself.
  if (source.includes('__webprof$')) return null;
  // runtime: null: no import is added; the checks use the agent's globals.
  const t = await transformForSampling(source, { runtime: null, file: url });
  if (t.status !== 'Ok') report(state, url, `the transform cannot read it (${t.status})`);
  let body = t.code;
  if (worker && state.workerAgent) {
    const agent = JSON.stringify(new URL(WORKER_AGENT_PATH, url).href);
    body = worker === 'module' ? `import ${agent};${body}` : `importScripts(${agent});${body}`;
  }
  delete headers['content-length'];
  // Columns moved: the script's own source map no longer describes it
  // (js/symbolicate/discover.mjs reads this and leaves its frames alone).
  if (t.sites > 0) headers['x-webprof-rewritten'] = 'sampling transform';
  remember(state, url, body, headers);
  return { headers, body };
}
