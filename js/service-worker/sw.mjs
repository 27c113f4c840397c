// dist/webprof-sw.js: dense sampling with no build step. A service worker
// the site serves (at its root, or with `Service-Worker-Allowed`) that
// passes the page's same-origin scripts and HTML documents through the
// sampling transform as they are fetched — in the browser, with webprof's
// classic build and its Wasm core (the same transform as the bundler
// plugins and the Playwright route; js/transform/).
//
// Registered by the drop-in `<script src=".../webprof.js" data-polyfill
// data-dense>` (js/service-worker/dropin.mjs), which passes webprof.js's URL
// as `?webprof=`. Rewritten only for pages that load webprof that way — a
// client whose document carries the data-dense tag — since the inserted
// checks call the globals that tag defines:
//  - the document: its inline scripts after the tag (js/transform/html.mjs),
//    marked with `Server-Timing: webprof-dense` so the page knows;
//  - scripts that client requests (classic, module, import()), except the
//    external ones placed before the tag (they run before the globals exist);
//  - a classic dedicated worker such a client starts: its script URL is
//    answered with `importScripts(before, webprof.js, after, url)` — `before`
//    and `after` (virtual scripts this worker serves) say where the Wasm is
//    and define the two globals — so the worker's own code, requested again
//    by that importScripts, comes rewritten with every position the
//    original's; the worker's later importScripts are rewritten too. A module
//    worker is left as it is (a module cannot import itself first);
//  - a later plain fetch of a rewritten URL (the polyfill reading sources
//    for definition positions) gets the rewritten text.
// Cross-origin isolation on request: a tag with `data-dense-isolate`
// (`="require-corp"` for browsers without `credentialless`) gets its document
// served with COOP `same-origin` and COEP `credentialless`, as the
// coi-serviceworker technique does, so the page may share memory with a
// Worker and the polyfill's checks run in ticker mode (time-faithful,
// js/profiler/dense.mjs). The drop-in then registers this worker with
// `&isolate=`: same-origin frames and the worker scripts it serves get the
// COEP too (an isolated document may embed only those). Headers a response
// already has are kept.
// Cache: transformed text by the SHA-256 of the source, in CacheStorage
// (`webprof-dense-v1`), so a script is transformed once per version however
// often it loads. Cross-origin, non-GET, non-OK and non-JS responses pass
// through untouched, and so do webprof's own scripts (webprof.js and the
// tools module's JS: checks in them would sample webprof).
// State: what this worker decided for earlier loads (the clients that load
// webprof with data-dense, the workers they started, the URLs it rewrote) is
// saved in CacheStorage too (`webprof-dense-state-v1`). A browser stops an
// idle service worker (30 s in Firefox and Chromium) and starts a fresh one
// for the next request; without the saved state that one would leave a
// page's later scripts unrewritten and, in an isolated page, its later
// workers without their COEP, which then fail to load.
/* global webprof */

const params = new URL(self.location.href).searchParams;
const LIB = new URL(params.get('webprof') || 'webprof.js', self.location.href).href;
const COEP = /^(credentialless|require-corp)$/.test(params.get('isolate')) ? params.get('isolate') : null;
self.webprofWasmUrl = new URL('webprof-core.wasm', LIB).href;
importScripts(LIB);
// The tools module's JS (the transform) comes up front: a service worker
// cannot import scripts once installed (js/core/tools-js-classic.mjs).
// Without it scripts pass through untransformed (each transform fails).
const TOOLS_JS = new URL('webprof-tools.js', LIB).href;
try {
  importScripts(TOOLS_JS);
} catch {
  /* not served beside webprof.js */
}

const CACHE = 'webprof-dense-v1';
const STATE_CACHE = 'webprof-dense-state-v1';
// One per registration: the same script may serve two scopes.
const STATE = new URL(
  `__webprof_dense__/state?scope=${encodeURIComponent(self.registration.scope)}`,
  self.location.href,
).href;
const MAX_CACHED = 512;
const MARK = 'webprof-dense';
const TAG = /<script\b[^>]*\sdata-dense\b/i;
const ISOLATE = /\sdata-dense-isolate(?:\s*=\s*["']?(credentialless|require-corp))?/i;
const JS = /javascript|ecmascript/i;

// Clients (documents) that load webprof with data-dense, and per client the
// external scripts that run before webprof's tag. Bounded by the number of
// open pages; a closed client's entry goes at a document load a minute on
// (a navigation's client is listed by clients.matchAll only once its
// document exists, and another load may prune before then).
const clients = new Map(); // clientId -> {before: Set(absolute URL) of scripts before the tag (none for workers), at: ms}
const workerScripts = new Set(); // URLs of classic workers started by those clients, the latest 64
const rewritten = new Map(); // url -> {key, type}: its rewritten text's key in the transform cache, Content-Type; the latest 64
const PRUNE_AFTER_MS = 60000;

// What a started worker loads around webprof.js (answered here, never fetched).
const BEFORE = new URL('__webprof_dense__/worker-before.js', self.location.href).href;
const AFTER = new URL('__webprof_dense__/worker-after.js', self.location.href).href;
const VIRTUAL = new Map([
  [BEFORE, `if (!self.webprofWasmUrl) self.webprofWasmUrl = ${JSON.stringify(self.webprofWasmUrl)};`],
  [
    AFTER,
    "for (const k of ['__wp$f', '__wp$s', '__wp$p']) Object.defineProperty(self, k, { value: webprof[k], configurable: true });",
  ],
]);

self.addEventListener('install', (e) => e.waitUntil(self.skipWaiting()));
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (VIRTUAL.has(url.href)) {
    // The worker's bootstrap asks for BEFORE first: its client is the worker,
    // whose own script (requested next) is then rewritten as a client's
    // (where the browser gave no resultingClientId for the worker).
    if (url.href === BEFORE && e.clientId && req.destination === 'script' && !clients.has(e.clientId))
      addClient(e.clientId, []);
    e.respondWith(new Response(VIRTUAL.get(url.href), { headers: { 'Content-Type': 'text/javascript' } }));
    e.waitUntil(saving);
    return;
  }
  if (url.origin !== self.location.origin || url.href === LIB || url.href === TOOLS_JS) return;
  let response;
  if (restored) response = route(e, url);
  else if (/^(document|iframe|worker|script|)$/.test(req.destination) && !streamed(req))
    // Just started: the saved state is still being read.
    response = restore().then(() => route(e, url) || fetch(req));
  if (!response) return;
  e.respondWith(response);
  // The state a response changed is saved before this worker may stop.
  e.waitUntil(response.then(() => saving).catch(() => {}));
});

// The response this worker gives `e`'s request, or null: the browser's own.
function route(e, url) {
  const req = e.request;
  const dest = req.destination;
  const client = clients.get(e.clientId);
  if (dest === 'document' || dest === 'iframe') return rewriteDocument(req, e.resultingClientId);
  if (dest === 'worker' && client) return startWorker(req, e.resultingClientId);
  if (dest === 'script' && !client && workerScripts.has(url.href)) return adoptWorker(req, e.clientId);
  if (dest === 'script' && client && !client.before.has(url.href)) return rewriteScript(req);
  // With the original Content-Type: the frame resolver (run by such a
  // client) reads an HTML document's inline scripts, a script's text as
  // JavaScript. Other pages get the original.
  if (dest === '' && client && !streamed(req) && rewritten.has(url.href))
    return rewrittenText(req, rewritten.get(url.href));
  return null;
}

// A range or an event stream: never answered with a whole text, nor held
// while the saved state is read.
function streamed(req) {
  return req.headers.has('range') || /text\/event-stream/i.test(req.headers.get('accept') || '');
}

async function rewrittenText(req, { key, type }) {
  const hit = await (await caches.open(CACHE)).match(key);
  if (!hit) return fetch(req); // evicted since: the original text
  return new Response((await hit.json()).code, { headers: { 'Content-Type': type } });
}

function addClient(id, before) {
  clients.set(id, { before: new Set(before), at: Date.now() });
  save();
}

// The saved state, read once per start of this worker; what this start
// already decided wins over it.
let restored = false;
let restoring = null;
function restore() {
  if (!restoring)
    restoring = (async () => {
      try {
        const hit = await (await caches.open(STATE_CACHE)).match(STATE);
        const saved = hit ? await hit.json() : {};
        for (const [id, before, at] of saved.clients || [])
          if (!clients.has(id)) clients.set(id, { before: new Set(before), at });
        for (const u of saved.workers || []) workerScripts.add(u);
        for (const [u, key, type] of saved.rewritten || [])
          if (!rewritten.has(u)) rewritten.set(u, { key, type });
      } catch {
        /* nothing saved, or unreadable: this start begins empty */
      }
      restored = true;
    })();
  return restoring;
}
restore();

let saving = Promise.resolve();
let queued = false; // a write is queued and has not read the state yet
function save() {
  // One queued write covers every change made before it starts.
  if (queued) return saving;
  queued = true;
  // The state as it is when written (the saved one merged in by then).
  const put = async () => {
    queued = false;
    const state = JSON.stringify({
      clients: [...clients].map(([id, c]) => [id, [...c.before], c.at]),
      workers: [...workerScripts],
      rewritten: [...rewritten].map(([u, r]) => [u, r.key, r.type]),
    });
    const cache = await caches.open(STATE_CACHE);
    await cache.put(STATE, new Response(state, { headers: { 'Content-Type': 'application/json' } }));
  };
  // In order, each after the last and after the saved state was read (a
  // write before would lose it); a failed write leaves the previous state.
  saving = saving
    .then(restore)
    .then(put)
    .catch(() => {});
  return saving;
}

async function rewriteDocument(req, clientId) {
  const res = await fetch(req);
  if (!res.ok || res.type !== 'basic' || !/html/i.test(res.headers.get('content-type') || '')) return res;
  const html = await res.text();
  const tag = TAG.exec(html);
  if (!tag) return respond(res, html, { frame: req.destination === 'iframe' });
  const end = html.indexOf('>', tag.index);
  const isolate = ISOLATE.exec(html.slice(tag.index, end < 0 ? undefined : end));
  await prune();
  const csp = res.headers.get('content-security-policy') || '';
  let r;
  try {
    r = await cached(`html:${csp}`, html, () =>
      webprof.transformHtmlForSampling(html, {
        from: tag.index + tag[0].length,
        csp,
        file: req.url,
      }),
    );
  } catch {
    return respond(res, html, { frame: req.destination === 'iframe' }); // no transform: the document as it is
  }
  if (clientId)
    addClient(
      clientId,
      r.before.map((src) => new URL(src, req.url).href),
    );
  remember(req.url, r, res);
  return respond(res, r.code, {
    mark: true,
    frame: req.destination === 'iframe',
    isolate: isolate && req.destination === 'document' ? isolate[1] || 'credentialless' : null,
  });
}

async function rewriteScript(req) {
  const res = await fetch(req);
  if (!res.ok || res.type !== 'basic' || !JS.test(res.headers.get('content-type') || '')) return res;
  const source = await res.text();
  // A copy of webprof itself is never rewritten (its probe sites would sample webprof).
  if (source.includes('__webprof$')) return respond(res, source);
  let t;
  try {
    t = await cached('js', source, () =>
      webprof.transformForSampling(source, { runtime: null, file: req.url }),
    );
  } catch {
    return respond(res, source); // no transform (e.g. the tools module is missing): the script as it is
  }
  remember(req.url, t, res);
  return respond(res, t.code);
}

// A classic worker (its script is fetched same-origin; a module worker's
// with CORS): loads webprof and its globals, then its own script again.
async function startWorker(req, clientId) {
  const res = await fetch(req);
  const type = res.headers.get('content-type') || '';
  if (req.mode !== 'same-origin' || !res.ok || res.type !== 'basic' || !JS.test(type))
    return COEP && res.type === 'basic' ? respond(res, res.body, { frame: true }) : res;
  // The worker's client, when the browser says it here (else adoptWorker).
  workerScripts.delete(req.url);
  workerScripts.add(req.url);
  if (workerScripts.size > 64) workerScripts.delete(workerScripts.values().next().value);
  if (clientId) addClient(clientId, []);
  else save();
  const urls = [BEFORE, LIB, AFTER, req.url].map((u) => JSON.stringify(u)).join(', ');
  return respond(res, `importScripts(${urls});`, { frame: true });
}

// The worker's own script, requested by its bootstrap's importScripts from a
// client not known yet (BEFORE's request had none): the requesting client is
// the worker (rewritten from now on). clients.get() waits for the client to
// be ready; a wait past ADOPT_WAIT_MS gives the script as it is (not
// sampled inside) rather than a worker stalled in its importScripts.
const ADOPT_WAIT_MS = 3000;
async function adoptWorker(req, clientId) {
  const client = clientId
    ? await Promise.race([
        self.clients.get(clientId),
        new Promise((resolve) => setTimeout(resolve, ADOPT_WAIT_MS, null)),
      ])
    : null;
  if (!client || client.type !== 'worker') return fetch(req);
  addClient(clientId, []);
  return rewriteScript(req);
}

// `mark`: the document was rewritten (Server-Timing); `frame`: a frame or a
// worker, which an isolated document embeds only with a COEP (`&isolate=`);
// `isolate`: the COEP a top-level document asked for with data-dense-isolate.
function respond(res, body, { mark = false, frame = false, isolate = null } = {}) {
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  if (mark) headers.append('Server-Timing', MARK);
  const coep = isolate || (frame ? COEP : null);
  if (coep && !headers.has('cross-origin-embedder-policy')) headers.set('Cross-Origin-Embedder-Policy', coep);
  if (isolate && !headers.has('cross-origin-opener-policy'))
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

// `t`: a transform's result from cached() (its cache key).
function remember(url, t, res) {
  rewritten.delete(url);
  rewritten.set(url, { key: t.key, type: res.headers.get('content-type') || 'text/javascript' });
  if (rewritten.size > 64) rewritten.delete(rewritten.keys().next().value);
  save();
}

// The transform's result for `text` ({code, before, key}), from the cache
// when this exact text was transformed before (the key is its SHA-256, so a
// new version is new).
async function cached(kind, text, transform) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const key = new URL(`/__webprof_dense__/${hex}/${encodeURIComponent(kind)}`, self.location.href).href;
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit) return { ...(await hit.json()), key };
  const r = await transform();
  const keep = { code: r.code, before: r.before || [] };
  await cache.put(
    key,
    new Response(JSON.stringify(keep), { headers: { 'Content-Type': 'application/json' } }),
  );
  // Bounded: past MAX_CACHED entries the oldest go (keys() is in insertion order).
  const keys = await cache.keys();
  for (let i = 0; i < keys.length - MAX_CACHED; i++) await cache.delete(keys[i]);
  return { ...keep, key };
}

// Forget clients that have gone (their pages closed or navigated away).
async function prune() {
  const all = await self.clients.matchAll({ includeUncontrolled: true, type: 'all' });
  const open = new Set(all.map((c) => c.id));
  const old = Date.now() - PRUNE_AFTER_MS;
  for (const [id, c] of clients) if (!open.has(id) && c.at < old) clients.delete(id);
}
