// Which scripts have CORS-muted errors, i.e. must never show in a trace.
//
// The W3C JS Self-Profiling spec drops frames of classic scripts whose
// "muted errors" flag is set: fetched cross-origin without a successful CORS
// check (no `crossorigin` attribute, or no CORS headers — then it would not
// have run), including a same-origin URL that redirected cross-origin. The
// script's URL alone cannot tell the redirect case: `Error.stack` shows the
// original same-origin URL. The rule, in order, for a URL as `Error.stack`
// shows it (the core asks once per URL, before any of its frames is kept):
//  1. no document (Node, workers without DOM): not muted (no CORS realm rule);
//  2. the document's own URL (inline scripts, their eval code), `data:`,
//     `blob:`, `about:`: not muted;
//  3. a script of another realm — the document or a `<script src>` of a
//     same-origin child or parent frame, and not also a script of this
//     document — is hidden: the spec keeps only frames of the profiler's own
//     realm;
//  4. a Resource Timing entry for the URL with `responseStatus`: muted iff it
//     is 0 — an opaque response (cross-origin no-cors, or a no-cors redirect
//     across origins); a CORS fetch exposes the real status;
//  5. a Resource Timing entry without `responseStatus` (WebKit, older engines):
//     muted iff transferSize, encodedBodySize and decodedBodySize are all 0
//     (opaque responses report all three as 0; a cache hit keeps
//     decodedBodySize) and rule 6 does not apply — WebKit also reports 0 for a
//     CORS response without Timing-Allow-Origin;
//  6. a `<script src>` element with the URL: with a `crossorigin` attribute
//     (it ran, so CORS passed) or `type=module` (always CORS): not muted;
//  7. otherwise: muted iff cross-origin (unknown cross-origin code is hidden).
// JavaScriptCore shows URLs without their query: rules 2-6 then look at the
// one URL the page loaded with that prefix (scriptUrlAsLoaded).
// Limits: Resource Timing keeps 250 entries by default; a same-origin URL
// that redirected cross-origin and fell out of that buffer is not detected
// (call performance.setResourceTimingBufferSize to raise it).
//
// Decided once, from evidence the page cannot rewrite later: the answer for
// a URL is kept from the first time it is asked (when the core first meets
// a frame of the script, or at import), so a later
// performance.clearResourceTimings() or a `crossorigin` attribute added to
// an already loaded no-cors <script> changes nothing. The evidence of rules
// 4-5 is recorded as Resource Timing entries arrive (a PerformanceObserver
// from webprof's load, with the entries buffered before it); an opaque
// entry is sticky (a later CORS fetch of the same URL does not unmute it).
// Rule 6 ignores a <script> whose crossorigin, type or src changed after
// webprof saw it (a MutationObserver). Each table holds at most MAX_URLS
// URLs; past that a URL is decided on the spot each time (counted).
const MAX_URLS = 4096;
const decided = new Map(); // href -> muted, first answer
const evidence = new Map(); // href -> the highest-ranked Resource Timing evidence (noteEntry)
const tampered = new WeakSet(); // <script> elements changed after insertion
/** URLs decided on the spot because a table was full (diagnostics). */
export const mutedStats = { undecided: 0 };

function stripFragment(url) {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

// Rule 3 asks this of this document and of each same-origin relative.
function hasScript(d, href) {
  for (const s of d.getElementsByTagName('script')) if (s.src && stripFragment(s.src) === href) return true;
  return false;
}

function inChildRealm(win, href, depth) {
  if (depth > 8 || !win.frames) return false;
  for (let i = 0; i < win.frames.length; i++) {
    let d;
    try {
      d = win.frames[i].document; // throws for cross-origin children
    } catch {
      continue;
    }
    if (!d) continue;
    if (stripFragment(d.URL) === href || hasScript(d, href)) return true;
    if (inChildRealm(win.frames[i], href, depth + 1)) return true;
  }
  return false;
}

// The same rule upwards: the document or a `<script src>` of a same-origin
// parent (or its parents) that called into this realm (RuntimeProfiler
// profiling an iframe from its parent; a W3C Profiler in an iframe).
function inParentRealm(href) {
  let win = globalThis;
  for (let depth = 0; depth < 8 && win.parent && win.parent !== win; depth++) {
    win = win.parent;
    let d;
    try {
      d = win.document; // throws for a cross-origin parent
    } catch {
      return false;
    }
    if (!d) return false;
    if (stripFragment(d.URL) === href || hasScript(d, href)) return true;
  }
  return false;
}

// Rule 6: such an element ran only if its CORS check passed.
function loadedWithCors(href) {
  for (const s of document.getElementsByTagName('script')) {
    if (!s.src || stripFragment(s.src) !== href || tampered.has(s)) continue;
    if (s.getAttribute('crossorigin') !== null || s.type === 'module') return true;
  }
  return false;
}

const withoutQuery = (url) => url.replace(/[?#].*$/, '');

/**
 * JavaScriptCore's Error.stack drops a script URL's query and fragment: the
 * URL the page loaded (a `<script src>` or Resource Timing entry) whose
 * query-less form is `url`, when exactly one does; otherwise `url` itself.
 */
export function scriptUrlAsLoaded(url) {
  if (typeof document === 'undefined' || /[?#]/.test(url)) return url;
  const found = new Set();
  for (const s of document.getElementsByTagName('script'))
    if (s.src && withoutQuery(s.src) === url) found.add(stripFragment(s.src));
  if (typeof performance !== 'undefined' && performance.getEntriesByType)
    for (const e of performance.getEntriesByType('resource'))
      if (withoutQuery(e.name) === url) found.add(stripFragment(e.name));
  return found.size === 1 ? found.values().next().value : url;
}

// The evidence of an entry, ranked: an entry with responseStatus 0 (rule 4)
// outranks one with all sizes 0 (rule 5), which outranks a clear one; a URL
// keeps the highest it was ever seen with.
const CLEAR = 0;
const ZERO_SIZES = 1;
const STATUS_0 = 2;
function noteEntry(e) {
  const href = stripFragment(e.name);
  let rank;
  if (typeof e.responseStatus === 'number') rank = e.responseStatus === 0 ? STATUS_0 : CLEAR;
  else if (e.transferSize === 0 && e.encodedBodySize === 0 && e.decodedBodySize === 0) rank = ZERO_SIZES;
  else return; // no evidence either way: rules 6-7
  const had = evidence.get(href);
  if (had === undefined ? evidence.size < MAX_URLS : rank > had) evidence.set(href, rank);
}

function noteEntries(list) {
  for (const e of list) noteEntry(e);
}

// From webprof's load on: what the page loaded, as it loaded it.
function watch() {
  if (typeof document === 'undefined' || typeof performance === 'undefined') return;
  try {
    if (performance.getEntriesByType) noteEntries(performance.getEntriesByType('resource'));
    if (typeof PerformanceObserver === 'function')
      new PerformanceObserver((list) => noteEntries(list.getEntries())).observe({
        type: 'resource',
        buffered: true,
      });
    if (typeof MutationObserver === 'function')
      new MutationObserver((records) => {
        for (const r of records) if (r.target.localName === 'script') tampered.add(r.target);
      }).observe(document, {
        subtree: true,
        attributes: true,
        attributeFilter: ['crossorigin', 'type', 'src'],
      });
  } catch {
    /* no observers: rules 4-6 read the live state */
  }
}
watch();

/** True when frames of the script at `url` (as Error.stack shows it) must be hidden. */
export function isMutedScriptUrl(url) {
  if (typeof document === 'undefined' || typeof location === 'undefined') return false;
  const known = decided.get(url);
  if (known !== undefined) return known;
  const muted = decide(url);
  if (decided.size < MAX_URLS) decided.set(url, muted);
  else mutedStats.undecided++;
  return muted;
}

function decide(url) {
  let u;
  try {
    u = new URL(url, document.baseURI);
  } catch {
    return true; // not a URL we can reason about: hide rather than leak
  }
  if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return false;
  if (u.href === withoutQuery(document.URL)) return false;
  const href = scriptUrlAsLoaded(stripFragment(u.href));
  if (href === stripFragment(document.URL)) return false;
  if (!hasScript(document, href) && (inChildRealm(globalThis, href, 0) || inParentRealm(href))) return true;
  if (typeof performance !== 'undefined' && performance.getEntriesByName)
    noteEntries(performance.getEntriesByName(href, 'resource'));
  const seen = evidence.get(href);
  if (seen === STATUS_0) return true;
  if (seen === ZERO_SIZES) return !loadedWithCors(href);
  if (seen === CLEAR || loadedWithCors(href)) return false;
  return u.origin !== location.origin;
}
