// A profile that outlives its document: when the page navigates while Node
// profiles it (profile(), startProfile()/stopProfile(), the fixture's
// webprofProfile, `webprof record --script`), every document's trace is kept
// and the result is one trace spanning them.
//
// A profile lives in a document (its sampler and core are the document's),
// so each document is profiled on its own and joined afterwards:
//  - the leaving document stops itself at `beforeunload` and sends its data
//    through a binding (js/node/agent.mjs leaveDocument) — the full stop, as
//    at stopProfile (definition positions, source maps). Node cannot ask it:
//    while a navigation is pending, Chromium delivers no call from Node into
//    the page (Playwright's evaluate and CDP's Runtime.evaluate wait until
//    the new document commits), but the page's binding calls reach Node.
//    The route holds the navigation request until the data has arrived
//    (beforeNavigation), so the document is still there to finish; its
//    dedicated workers, which die with it, are stopped then too;
//  - the next document starts from its first script: an init script,
//    registered while the profile runs, starts it with the same options
//    (armNextDocuments); with autoStart, the agent does that anyway;
//  - at the end the documents' traces are joined by the core's loader
//    (js/profiler/trace.mjs joinTraces) on one time base: ms since the first
//    document's time origin (each document's samples move by its
//    performance.timeOrigin minus the first's; epoch ms of one clock), so the
//    result is one trace whose gaps are the navigations. Probe marks and
//    traces move the same way; an aggregate named alike in two documents is
//    kept per document (percentiles cannot be added up).
import { HIDDEN, startInPage } from './agent.mjs';
import { joinTraces, toHeldTrace } from '../profiler/trace.mjs';

// page -> [{data, workers: [{data, url}], problem}]: documents the running profile left.
const left = new WeakMap();
// page -> the init script (a Playwright Disposable) that starts the next documents.
const armed = new WeakMap();
// page -> {said, handled, arrived}: 'leaving' messages counted, the last one
// a navigation waited for, and the data of a profiling one still to come.
const leaving = new WeakMap();

// The page's beforeunload comes before its navigation request; its message
// may trail the request a little. A document without the agent never says.
const LEAVING_WAIT_MS = 1000;
// How long the navigation waits for the leaving document's stop (it may
// fetch the page's scripts and source maps).
const LEFT_WAIT_MS = 30_000;

const running = (target) =>
  target.evaluate((h) => !!(globalThis[h] && globalThis[h].__session), HIDDEN).catch(() => false);

// Timers that never keep Node alive (a CLI run ends when its work does).
const sleep = (ms) =>
  new Promise((r) => {
    const t = setTimeout(r, ms);
    if (t.unref) t.unref();
  });

function leavingOf(page) {
  let l = leaving.get(page);
  if (!l) leaving.set(page, (l = { said: 0, handled: 0, arrived: null, wake: () => {} }));
  return l;
}

function keep(page, entry) {
  const list = left.get(page) || [];
  list.push(entry);
  left.set(page, list);
}

/**
 * The binding's handler (agent.mjs DOCUMENT_BINDING): 'leaving' (a document
 * starts to leave; 'profiling' or 'idle'), then for a profiling one 'left'
 * with stopInPage's data (or {error}).
 */
export function onDocumentMessage(page, kind, text) {
  const l = leavingOf(page);
  if (kind === 'leaving') {
    l.said++;
    let done = () => {};
    l.arrived = text === 'profiling' ? new Promise((r) => (done = r)) : null;
    l.done = done;
    l.wake();
  } else if (kind === 'left') {
    let data = null;
    let problem = null;
    try {
      data = JSON.parse(text);
    } catch {
      problem = 'unreadable data';
    }
    if (data && data.error) {
      problem = data.error;
      data = null;
    }
    const entry = {
      data,
      workers: [],
      problem: problem && `${page.url()}: its profile could not be collected (${problem})`,
    };
    keep(page, entry);
    (l.done || (() => {}))(entry);
  }
}

/**
 * Called by the route for a top-level navigation request of `page` before it
 * lets the request go, when a profile may run in the document it replaces:
 * waits until that document has handed over its profile (onDocumentMessage),
 * then stops its workers. `stop(worker)` resolves to a worker's data. Never
 * throws: what could not be collected is said in the result.
 */
export async function beforeNavigation(page, stop, workersOf) {
  const l = leavingOf(page);
  // The blank page a tab starts on has no agent unless it was given content.
  if (l.said === l.handled && page.url() !== 'about:blank') {
    await Promise.race([new Promise((r) => (l.wake = r)), sleep(LEAVING_WAIT_MS)]);
    l.wake = () => {};
  }
  if (l.said === l.handled) return; // no agent spoke: nothing was profiled
  l.handled = l.said;
  const arrived = l.arrived;
  l.arrived = null;
  if (!arrived) return;
  const entry = await Promise.race([arrived, sleep(LEFT_WAIT_MS).then(() => null)]);
  if (!entry) {
    keep(page, {
      data: null,
      workers: [],
      problem: `${page.url()}: its profile did not arrive within ${LEFT_WAIT_MS / 1000} s of leaving`,
    });
    return;
  }
  // Its workers die with it; calls into them still arrive.
  for (const w of await Promise.race([workersOf(page), sleep(2000).then(() => [])]).catch(() => [])) {
    if (!(await Promise.race([running(w), sleep(2000).then(() => false)]))) continue;
    const wd = await Promise.race([stop(w), sleep(LEFT_WAIT_MS).then(() => null)]).catch(() => null);
    if (wd) entry.workers.push({ data: wd, url: w.url() });
  }
}

/** The documents the profile of `page` left so far (and forgets them). */
export function takeLeftDocuments(page) {
  const list = left.get(page) || [];
  left.delete(page);
  return list;
}

/** Whether documents the profile of `page` left wait for stopProfile. */
export const hasLeftDocuments = (page) => (left.get(page) || []).length > 0;

/** Forgets documents left by an earlier profile of `page` (a new one starts). */
export function forgetLeftDocuments(page) {
  left.delete(page);
}

/**
 * Starts `opts` (the Profiler options of startInPage) in every next
 * top-level document of `page`, from its first script, until disarm(page).
 * A start that fails (e.g. a document that does not allow the native
 * sampler) never throws into the page: the reason is kept for the result.
 */
export async function armNextDocuments(page, opts) {
  await disarm(page);
  const script = `(() => {
  const w = globalThis.${HIDDEN};
  if (!w || w.__session || globalThis.top !== globalThis) return;
  const failed = (e) => Object.defineProperty(w, '__startError', { value: String(e && e.message), configurable: true });
  try { (${startInPage.toString()})(w, ${JSON.stringify(opts)}).catch(failed); } catch (e) { failed(e); }
})();`;
  const d = await page.addInitScript({ content: script });
  // Playwright before Disposables (< 1.5x) cannot take an init script back:
  // later documents then start a profile nobody stops (harmless, wasted).
  armed.set(page, d && typeof d.dispose === 'function' ? d : { dispose: async () => {} });
}

/** Whether a profile started by armNextDocuments runs in `page`. */
export const isArmed = (page) => armed.has(page);

/** Stops starting profiles in next documents (see armNextDocuments). */
export async function disarm(page) {
  const d = armed.get(page);
  armed.delete(page);
  if (d) await d.dispose().catch(() => {});
}

// Probe events of a document, moved onto the first document's time base.
function moveEvents(list, offset, windowStart) {
  return {
    ...list,
    events: list.events.map((e) => ({
      ...e,
      timestamp: e.timestamp + offset,
      start: e.timestamp + offset - windowStart,
    })),
  };
}

function joinProbes(docs, offsets) {
  const first = docs[0].probes;
  const any = (first && [...first.marks.events, ...first.traces.events][0]) || null;
  const windowStart = any ? any.timestamp - any.start : docs[0].startedAt;
  const aggregates = [];
  const seen = new Set();
  const marks = { events: [], dropped: 0 };
  const traces = { events: [], dropped: 0, incomplete: 0 };
  docs.forEach((d, i) => {
    if (!d.probes) return;
    for (const [name, value] of d.probes.aggregates) {
      const key = seen.has(name) ? `${name} (document ${i + 1})` : name;
      seen.add(name);
      aggregates.push([key, value]);
    }
    const m = moveEvents(d.probes.marks, offsets[i], windowStart);
    const t = moveEvents(d.probes.traces, offsets[i], windowStart);
    marks.events.push(...m.events);
    marks.dropped += m.dropped || 0;
    traces.events.push(...t.events);
    traces.dropped += t.dropped || 0;
    traces.incomplete += t.incomplete || 0;
  });
  if (!docs.some((d) => d.probes)) return null;
  return { aggregates, marks, traces };
}

/**
 * The data of one profile that went through `docs` (stopInPage's data, in
 * the order they were left) as one: the trace joined on the first
 * document's time base, and `documents` — per document its url, time
 * origin, offset (ms from the first), samples, sampler and interval.
 */
export function joinDocuments(docs) {
  if (docs.length === 1) return { data: docs[0], documents: [] };
  const base = Math.min(...docs.map((d) => d.timeOrigin));
  const offsets = docs.map((d) => d.timeOrigin - base);
  const session = joinTraces(
    docs.map((d, i) => ({ trace: d.trace, timeOffset: offsets[i] })),
    { sampleInterval: docs[0].sampleInterval, timeOrigin: base },
  );
  const trace = toHeldTrace(session);
  const documents = docs.map((d, i) => ({
    url: d.url,
    timeOrigin: d.timeOrigin,
    offset: offsets[i],
    samples: d.trace.samples.length,
    backend: d.backend,
    sampleInterval: d.sampleInterval,
  }));
  return {
    data: {
      trace,
      probes: joinProbes(docs, offsets),
      // The first document's sampler; each document's is in `documents`.
      backend: docs[0].backend,
      denseMode: docs[0].denseMode ?? null,
      sampleInterval: docs[0].sampleInterval,
      startedAt: docs[0].startedAt + offsets[0],
      timeOrigin: base,
    },
    documents,
  };
}
