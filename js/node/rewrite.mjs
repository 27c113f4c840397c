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
//    code. The network cannot tell a worker's script from a page's (the
//    route sees no Sec-Fetch-Dest), so the page's agent starts each worker
//    from its URL marked with WORKER_MARK: the request itself says it is a
//    worker's, whatever the load (a binding call beside the request raced
//    it). The route answers the marked URL with a bootstrap that loads the
//    agent, then the script from its own URL — `importScripts(agent, url)`
//    or `import agent; import url;` — so the script is requested (and
//    transformed) like any other and every position is the original's,
//    line 1 included. (A redirect to the unmarked URL would keep the mark
//    out of the worker's `location`, but Chromium never completes a
//    worker's script redirected by a fulfilled route.) Where a loader has
//    no second request to answer (the WebKit proxy), rewrittenScript
//    prefixes the script itself with `importScripts(agent);` or
//    `import agent;` (line 1's columns move by it);
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

// The query parameter the page's agent appends to a worker's script URL
// (its value: 'classic' or 'module'). The worker's own `location` keeps it;
// the script, its frames and the results name the URL without it.
export const WORKER_MARK = '__webprof_worker';
const MARKED = new RegExp(`[?&]${WORKER_MARK}=(classic|module)$`);

/**
 * Runs in the page (agent, where the route serves the page): starts each
 * dedicated worker from its http(s) URL marked with `mark` and its type.
 * A URL it cannot mark (an opaque or blob: URL, a TrustedScriptURL webprof
 * may not re-create) goes to the constructor as the page gave it.
 */
export function watchWorkers(mark) {
  const W = globalThis.Worker;
  if (typeof W !== 'function') return;
  let policy = null; // for pages that enforce Trusted Types
  const marked = (arg, type) => {
    const url = new URL(String(arg), document.baseURI);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return arg;
    // At the end of the query; a fragment stays (the redirect keeps it).
    url.search += `${url.search.length > 1 ? '&' : ''}${mark}=${type}`;
    if (typeof arg === 'string' || arg instanceof URL) return url.href;
    const tt = globalThis.trustedTypes;
    if (!tt || !tt.isScriptURL(arg)) return url.href;
    policy = policy || tt.createPolicy('webprof-worker', { createScriptURL: (u) => u });
    return policy.createScriptURL(url.href);
  };
  globalThis.Worker = new Proxy(W, {
    construct(target, args, newTarget) {
      let given = args;
      if (args.length)
        try {
          const type = args[1] && args[1].type === 'module' ? 'module' : 'classic';
          given = [marked(args[0], type), ...args.slice(1)];
        } catch {
          /* a URL the constructor rejects itself, or no policy allowed */
        }
      return Reflect.construct(target, given, newTarget);
    },
  });
}

/**
 * Answers a worker's marked script URL with the agent, then the script from
 * `url` (the page's URL, without the mark), as a classic or a module worker
 * loads it, under the script's own response headers (a worker takes its CSP
 * and COEP from them); a response that is not ok is passed on as it is.
 */
async function workerBootstrap(route, state, url, type) {
  const response = await route.fetch({ url });
  if (!response.ok()) return route.fulfill({ response });
  const load = [state.workerAgent ? new URL(WORKER_AGENT_PATH, url).href : null, url].filter(Boolean);
  const body =
    type === 'module'
      ? load.map((u) => `import ${JSON.stringify(u)};`).join('')
      : `importScripts(${load.map((u) => JSON.stringify(u)).join(', ')});`;
  const headers = { ...response.headers(), 'content-type': 'text/javascript' };
  delete headers['content-length'];
  delete headers['content-encoding'];
  return route.fulfill({ response, headers, body });
}

/** A URL without the agent's worker mark (Playwright names a worker by the URL it started from). */
export function unmarkedUrl(url) {
  const u = new URL(url);
  const hash = u.hash;
  u.hash = '';
  const m = MARKED.exec(u.href);
  return m ? u.href.slice(0, m.index) + hash : url;
}

/** Routes every request of `target` (a Page or a BrowserContext) through `state`. */
export async function routePageLoads(target, state) {
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
  const mark = MARKED.exec(url.split('#')[0]);
  if (mark) return workerBootstrap(route, state, url.slice(0, mark.index), mark[1]);
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
  // is the worker's (marked) script URL.
  if (kind === 'other' && MARKED.test(request.headers().referer || ''))
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
  if (!scriptMayChange(state, url)) return route.fallback();
  const response = await route.fetch();
  if (!response.ok()) return route.fulfill({ response });
  const js = JS_TYPE.test(response.headers()['content-type'] || '');
  if (imported && !js) return route.fulfill({ response });
  const r = await rewrittenScript(state, url, response.headers(), await response.text());
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
