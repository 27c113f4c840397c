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
// through untouched.
/* global webprof */

const params = new URL(self.location.href).searchParams;
const LIB = new URL(params.get('webprof') || 'webprof.js', self.location.href).href;
const COEP = /^(credentialless|require-corp)$/.test(params.get('isolate')) ? params.get('isolate') : null;
self.webprofWasmUrl = new URL('webprof-core.wasm', LIB).href;
importScripts(LIB);
// The tools module's JS (the transform) comes up front: a service worker
// cannot import scripts once installed (js/core/tools-js-classic.mjs).
// Without it scripts pass through untransformed (each transform fails).
try {
  importScripts(new URL('webprof-tools.js', LIB).href);
} catch {
  /* not served beside webprof.js */
}

const CACHE = 'webprof-dense-v1';
const MAX_CACHED = 512;
const MARK = 'webprof-dense';
const TAG = /<script\b[^>]*\sdata-dense\b/i;
const ISOLATE = /\sdata-dense-isolate(?:\s*=\s*["']?(credentialless|require-corp))?/i;
const JS = /javascript|ecmascript/i;

// Clients (documents) that load webprof with data-dense, and per client the
// external scripts that run before webprof's tag. Bounded by the number of
// open pages; a closed client's entry goes at the next document load.
const clients = new Map(); // clientId -> Set(absolute URL) of scripts before the tag (none for workers)
const workerScripts = new Set(); // URLs of classic workers started by those clients, the latest 64
const rewritten = new Map(); // url -> {code, type} (rewritten text, Content-Type), the latest 64

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
    e.respondWith(new Response(VIRTUAL.get(url.href), { headers: { 'Content-Type': 'text/javascript' } }));
    return;
  }
  if (url.origin !== self.location.origin || url.href === LIB) return;
  const dest = req.destination;
  if (dest === 'document' || dest === 'iframe') e.respondWith(rewriteDocument(req, e.resultingClientId));
  else if (dest === 'worker' && clients.has(e.clientId)) e.respondWith(startWorker(req, e.resultingClientId));
  else if (dest === 'script' && !clients.has(e.clientId) && workerScripts.has(url.href))
    e.respondWith(adoptWorker(req, e.clientId));
  else if (dest === 'script' && clients.has(e.clientId) && !clients.get(e.clientId).has(url.href))
    e.respondWith(rewriteScript(req));
  else if (dest === '' && rewritten.has(url.href)) {
    // With the original Content-Type: the frame resolver reads an HTML
    // document's inline scripts, a script's text as JavaScript.
    const { code, type } = rewritten.get(url.href);
    e.respondWith(new Response(code, { headers: { 'Content-Type': type } }));
  }
});

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
  if (clientId) clients.set(clientId, new Set(r.before.map((src) => new URL(src, req.url).href)));
  remember(req.url, r.code, res);
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
  remember(req.url, t.code, res);
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
  if (clientId) clients.set(clientId, new Set());
  workerScripts.delete(req.url);
  workerScripts.add(req.url);
  if (workerScripts.size > 64) workerScripts.delete(workerScripts.values().next().value);
  const urls = [BEFORE, LIB, AFTER, req.url].map((u) => JSON.stringify(u)).join(', ');
  return respond(res, `importScripts(${urls});`, { frame: true });
}

// The worker's own script, requested by its bootstrap's importScripts: the
// requesting client is the worker (rewritten from now on).
async function adoptWorker(req, clientId) {
  const client = clientId ? await self.clients.get(clientId) : null;
  if (!client || client.type !== 'worker') return fetch(req);
  clients.set(clientId, new Set());
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

function remember(url, code, res) {
  rewritten.delete(url);
  rewritten.set(url, { code, type: res.headers.get('content-type') || 'text/javascript' });
  if (rewritten.size > 64) rewritten.delete(rewritten.keys().next().value);
}

// The transform's result for `text`, from the cache when this exact text was
// transformed before (the key is its SHA-256, so a new version is new).
async function cached(kind, text, transform) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const key = new URL(`/__webprof_dense__/${hex}/${encodeURIComponent(kind)}`, self.location.href).href;
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit) return hit.json();
  const r = await transform();
  const keep = { code: r.code, before: r.before || [] };
  await cache.put(
    key,
    new Response(JSON.stringify(keep), { headers: { 'Content-Type': 'application/json' } }),
  );
  // Bounded: past MAX_CACHED entries the oldest go (keys() is in insertion order).
  const keys = await cache.keys();
  for (let i = 0; i < keys.length - MAX_CACHED; i++) await cache.delete(keys[i]);
  return keep;
}

// Forget clients that have gone (their pages closed or navigated away).
async function prune() {
  const all = await self.clients.matchAll({ includeUncontrolled: true, type: 'all' });
  const open = new Set(all.map((c) => c.id));
  for (const id of clients.keys()) if (!open.has(id)) clients.delete(id);
}
