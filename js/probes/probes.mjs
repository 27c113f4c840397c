// Explicit probes (seed 004): recording windows, aggregates, traces, marks,
// reporters. Storage, limits and aggregation live in the Wasm core
// (src/window.h); this module reads the clock, caches name -> id, keeps the
// info objects (the core stores their slot numbers) and builds the JS results.
//
// Hot paths are a JS boolean check then plain Wasm exports taking numbers:
// not recording, aggrStart returns -1 without reading the clock; recording,
// the core first admits the call (src/probes/window.h Admit*) and only then
// is the clock read for the timed call, so a probe the core drops (a limit,
// a cap, a stale id, an end without a start) costs no clock read. Until the
// core is loaded the exports are stand-ins that log each call with its time;
// `ready` replays the log into the core, so nothing recorded early is lost
// (ids handed out meanwhile are provisional, >= PROVISIONAL, and are mapped
// to the real ones on the way in).
// The instance, not js/core/core.mjs: alone, the probes load their own core.
import { onPoison, poison, ready, trapped, WebprofError } from '../core/instance.mjs';
import { boundary, checkId, probeExports, probesEnd, probesIntern, probesStart } from '../core/boundary.mjs';
import { pickClock } from '../core/clock.mjs';
import { readWindow } from './results.mjs';

export { windowNumber, windowSource } from './results.mjs';

// ---- clock ----
const now = pickClock(globalThis);

// While a window records, every probe is also a Profiler polyfill sample
// site (js/profiler/sampler.mjs: a countdown decrement unless a sample is
// due). The sampler installs itself when it loads (setSampleSite): webprof/perf
// alone has no Profiler, and must not carry the sampler's code.
const site = { sample() {} };
/** The sampler's probe site, called by every probe while a window records. Internal. */
export function setSampleSite(fn) {
  site.sample = fn;
}

// ---- state ----
// Above every id the core can return: its exports return int32.
const PROVISIONAL = 2 ** 31;
// Whether a window is open. A field of a const object: V8 loads it without
// the TDZ check a module-level `let` costs on every probe call (measured
// ~1 ns per call in Node 20 and Chromium).
const state = { recording: false };
let infos = []; // info objects of the live window, by slot
let generation = 0; // windows finished in JS (for the console header)
let globalReporter = null;
const nameIds = new Map(); // name -> core id (or provisional id before ready)

// Pre-ready log: flat [op, a, b, c, d] entries replayed by `replay`.
let log = [];
const provNames = [];
const provIds = new Map(); // provisional probe id -> real id
let nextProv = PROVISIONAL;
const OP_START = 0;
const OP_END = 1;
const OP_AGGR_START = 2;
const OP_AGGR_END = 3;
const OP_AGGR_START_NAMED = 4;
const OP_AGGR_END_NAMED = 5;
const OP_TRACE_START = 6;
const OP_TRACE_END = 7;
const OP_TRACE_END_NAMED = 8;
const OP_MARK = 9;

function logged(op, result) {
  return (a, b, c, d) => {
    log.push([op, a, b, c, d]);
    return result === 'id' ? nextProv++ : result;
  };
}
let cAggrStart = logged(OP_AGGR_START, 'id');
let cAggrEnd = logged(OP_AGGR_END, 1);
let cAggrStartNamed = logged(OP_AGGR_START_NAMED, 0);
let cAggrEndNamed = logged(OP_AGGR_END_NAMED, 1);
let cTraceStart = logged(OP_TRACE_START, 'id');
let cTraceEnd = logged(OP_TRACE_END, 1);
let cTraceEndNamed = logged(OP_TRACE_END_NAMED, 1);
let cMark = logged(OP_MARK, 1);
let cStart = logged(OP_START, 1);
let cEnd = (t, reporter, windowInfos) => log.push([OP_END, t, reporter, windowInfos]);
// Admission: before the core is there every call is logged with its time
// (the replay lets the core decide); without a core none is.
const admitAll = () => 1;
let aAggrStart = admitAll;
let aAggrEnd = admitAll;
let aAggrEndNamed = admitAll;
let aTraceStart = admitAll;
let aTraceEnd = admitAll;
let aTraceEndNamed = admitAll;
let aMark = admitAll;
// Below this an id result is a refusal (a Status, src/boundary/boundary.h):
// none before the core is there, its noId after.
let lowestId = -Infinity;

function internName(name) {
  if (typeof name !== 'string') {
    throw new WebprofError(`webprof: a probe name must be a string, got ${typeof name}`);
  }
  let id;
  if (log === null) {
    const r = probesIntern(name);
    // The core's name caps (src/probes/window.h): the probe is dropped and
    // counted there; the name is not cached, so a later window may take it.
    if (r < boundary().noId && boundary().noId - r === boundary().status.TableFull) return DROPPED;
    id = checkId(r, `probe name "${name}"`);
  } else {
    id = PROVISIONAL + provNames.length;
    provNames.push(name);
  }
  nameIds.set(name, id);
  return id;
}
// A probe whose name the core refused: dropped before the clock is read.
const DROPPED = -1;
function idOf(name) {
  const id = nameIds.get(name);
  return id === undefined ? internName(name) : id;
}
function realId(id) {
  if (id < PROVISIONAL) return id;
  const r = provIds.get(id);
  return r === undefined ? -1 : r;
}

// ---- window ----
/**
 * Opens a recording window. Repeated while recording: nothing changes.
 * @param {{markLimit?: number, traceLimit?: number}} [options]
 */
export function start(options) {
  if (state.recording) {
    if (poisonedBy) throw poisonedBy;
    return;
  }
  const o = options !== null && typeof options === 'object' ? options : {};
  const markLimit = typeof o.markLimit === 'number' ? o.markLimit : NaN;
  const traceLimit = typeof o.traceLimit === 'number' ? o.traceLimit : NaN;
  state.recording = true;
  infos = [];
  cStart(now(), markLimit, traceLimit);
}

/** Closes the window and hands its results to the global then the local reporter. */
export function end(reporter) {
  if (!state.recording) return;
  if (poisonedBy) throw poisonedBy;
  const t = now();
  state.recording = false;
  cEnd(t, reporter, infos);
}

// ---- aggregates ----
// Kept tiny so TurboFan inlines it at the call site: not recording, a probe
// is a load of `state.recording` and a compare.
export function aggrStart(name, useName) {
  return state.recording
    ? aggrStartRecording(name, useName)
    : useName === true
      ? aggrStartNamedEarly(name)
      : -1;
}

function aggrStartRecording(name, useName) {
  site.sample();
  const id = nameIds.get(name);
  const n = id === undefined ? internName(name) : id;
  if (n === DROPPED) return -1;
  try {
    if (useName === true) {
      cAggrStartNamed(n, now());
      return -1;
    }
    if (aAggrStart(n) === 0) return -1;
    const r = cAggrStart(n, now());
    return r >= lowestId ? r : refused();
  } catch (e) {
    throw trapped(e);
  }
}

// Name mode may save its start before the window (seed 004).
function aggrStartNamedEarly(name) {
  const n = idOf(name);
  if (n !== DROPPED) cAggrStartNamed(n, now());
  return -1;
}

export function aggrEnd(idOrName) {
  if (!state.recording) return;
  site.sample();
  try {
    if (typeof idOrName === 'number') {
      if (idOrName >= 0) {
        const id = log === null ? realId(idOrName) : idOrName;
        if (aAggrEnd(id) !== 0) cAggrEnd(id, now());
      }
    } else if (typeof idOrName === 'string') {
      const n = idOf(idOrName);
      if (n !== DROPPED && aAggrEndNamed(n) !== 0) cAggrEndNamed(n, now());
    }
  } catch (e) {
    throw trapped(e);
  }
}

// ---- traces and marks ----
export function traceStart(name, useName) {
  if (!state.recording) return -1;
  site.sample();
  try {
    const n = idOf(name);
    const named = useName === true ? 1 : 0;
    if (n === DROPPED || aTraceStart(n, named) === 0) return -1;
    const r = cTraceStart(n, now(), named);
    return r >= lowestId ? r : refused();
  } catch (e) {
    throw trapped(e);
  }
}

export function traceEnd(idOrName, info) {
  if (!state.recording) return;
  site.sample();
  const slot = info === undefined ? -1 : infos.length;
  let ok = 0;
  try {
    if (typeof idOrName === 'number') {
      if (idOrName >= 0) {
        const id = log === null ? realId(idOrName) : idOrName;
        if (aTraceEnd(id) !== 0) ok = cTraceEnd(id, now(), slot);
      }
    } else if (typeof idOrName === 'string') {
      const n = idOf(idOrName);
      if (n !== DROPPED && aTraceEndNamed(n) !== 0) ok = cTraceEndNamed(n, now(), slot);
    }
  } catch (e) {
    throw trapped(e);
  }
  if (ok && slot >= 0) infos.push(info); // kept by reference
}

export function mark(name, info) {
  if (!state.recording) return;
  site.sample();
  const slot = info === undefined ? -1 : infos.length;
  let ok = 0;
  try {
    const n = idOf(name);
    if (n !== DROPPED && aMark(n) !== 0) ok = cMark(n, now(), slot);
  } catch (e) {
    throw trapped(e);
  }
  if (ok && slot >= 0) infos.push(info);
}

// ---- spans measured elsewhere (framework probes, e.g. long task entries) ----
/** Folds a span [startTime, endTime] (clock ms) into aggregate `name`. Internal. */
export function recordAggr(name, startTime, endTime) {
  if (!state.recording) return;
  try {
    const n = idOf(name);
    const id = n === DROPPED ? -1 : cAggrStart(n, startTime);
    if (id >= 0) cAggrEnd(id, endTime);
  } catch (e) {
    trapped(e); // from an observer callback, not the page's call: recorded, not thrown
  }
}
/** Records a finished trace [startTime, startTime + duration] (clock ms). Internal. */
export function recordTrace(name, startTime, duration, info) {
  if (!state.recording) return;
  try {
    const n = idOf(name);
    const id = n === DROPPED ? -1 : cTraceStart(n, startTime, 0);
    if (id < 0) return;
    const slot = info === undefined ? -1 : infos.length;
    if (cTraceEnd(id, startTime + duration, slot) && slot >= 0) infos.push(info);
  } catch (e) {
    trapped(e); // from an observer callback, not the page's call: recorded, not thrown
  }
}

// ---- legacy names ----
export const scopeStart = (name) => aggrStart(name);
export const scopeEnd = (id) => aggrEnd(id);
export const measureStart = (name) => aggrStart(name, true);
export const measureEnd = (name) => aggrEnd(name);

// ---- reporters ----
export function setReporter(reporter) {
  if (typeof reporter !== 'function') throw new WebprofError('webprof: setReporter expects a function');
  globalReporter = reporter;
}
export function clearReporter() {
  globalReporter = null;
}

function callReporter(reporter, results) {
  try {
    reporter(results[0], results[1], results[2]);
  } catch (e) {
    // Swallowed so neither recording nor the other reporter breaks; still
    // visible to whoever debugs the reporter.
    console.error('[webprof] a probes reporter threw:', e);
  }
}

function finishWindow(t, localReporter, windowInfos) {
  if (probesEnd(t) !== boundary().status.Ok) return;
  generation++;
  const results = readWindow(nameIds, windowInfos);
  if (globalReporter) callReporter(globalReporter, results);
  if (typeof localReporter === 'function') callReporter(localReporter, results);
}

// ---- for js/probes/console-reporter.mjs ----
/** The core's id for probe name `name` (interned on first use). Internal. */
export function probeNameId(name) {
  return idOf(name);
}
// ---- going live ----
function replay() {
  const entries = log;
  log = null; // from now on internName and the hot paths talk to the core
  const nameMap = new Map();
  provNames.forEach((name, k) => {
    nameIds.delete(name);
    nameMap.set(PROVISIONAL + k, idOf(name));
  });
  // The core's own names for the boundary marks.
  idOf('start');
  idOf('end');
  const n = (id) => (id >= PROVISIONAL ? nameMap.get(id) : id);
  const id = (p) => realId(p);
  const ex = probeExports();
  cAggrStart = ex.aggrStart;
  cAggrEnd = ex.aggrEnd;
  cAggrStartNamed = ex.aggrStartNamed;
  cAggrEndNamed = ex.aggrEndNamed;
  cTraceStart = ex.traceStart;
  cTraceEnd = ex.traceEnd;
  cTraceEndNamed = ex.traceEndNamed;
  cMark = ex.mark;
  aAggrStart = ex.admitAggrStart;
  aAggrEnd = ex.admitAggrEnd;
  aAggrEndNamed = ex.admitAggrEndNamed;
  aTraceStart = ex.admitTraceStart;
  aTraceEnd = ex.admitTraceEnd;
  aTraceEndNamed = ex.admitTraceEndNamed;
  aMark = ex.admitMark;
  cStart = probesStart;
  lowestId = boundary().noId;
  cEnd = finishWindow;
  let prov = PROVISIONAL;
  for (const [op, a, b, c, d] of entries) {
    if (op === OP_START) cStart(a, b, c);
    else if (op === OP_END) finishWindow(a, b, c);
    else if (op === OP_AGGR_START) provIds.set(prov++, cAggrStart(n(a), b));
    else if (op === OP_AGGR_END) cAggrEnd(id(a), b);
    else if (op === OP_AGGR_START_NAMED) cAggrStartNamed(n(a), b);
    else if (op === OP_AGGR_END_NAMED) cAggrEndNamed(n(a), b);
    else if (op === OP_TRACE_START) provIds.set(prov++, cTraceStart(n(a), b, c));
    else if (op === OP_TRACE_END) cTraceEnd(id(a), b, c);
    else if (op === OP_TRACE_END_NAMED) cTraceEndNamed(n(a), b, c);
    else if (op === OP_MARK) cMark(n(a), b, c);
    void d;
  }
}
// A trap poisons the core (js/core/core.mjs): from then on every probe
// throws the instance's WebprofError (the core also refuses each entry).
let poisonedBy = null;
function refused() {
  // Recording from now on: even the probes that skip the core when no
  // window is open reach a refusal (and throw) instead of doing nothing.
  state.recording = true;
  throw poisonedBy || poison('refused a probe');
}
onPoison((e) => {
  poisonedBy = e;
  state.recording = true;
  cAggrStart = cAggrEnd = cAggrStartNamed = cAggrEndNamed = refused;
  cTraceStart = cTraceEnd = cTraceEndNamed = cMark = cStart = cEnd = refused;
  aAggrStart = aAggrEnd = aAggrEndNamed = aTraceStart = aTraceEnd = aTraceEndNamed = aMark = refused;
});

ready.then(replay, () => {
  // No core: probes become no-ops (the reason is reported through `ready`).
  log = [];
  const none = () => 0;
  cAggrStart = cTraceStart = () => -1;
  cAggrEnd = cAggrStartNamed = cAggrEndNamed = cTraceEnd = cTraceEndNamed = cMark = cStart = cEnd = none;
  aAggrStart = aAggrEnd = aAggrEndNamed = aTraceStart = aTraceEnd = aTraceEndNamed = aMark = none;
});
