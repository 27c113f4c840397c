// A finished probes window as the reporters and exporters see it: the core's
// records (js/core/boundary.mjs probesReport) made into the seed's objects,
// and which results objects are still a window's own, so the console
// reporter and the exporters can read that window straight from the recorder
// (windowSource) instead of from the objects.
import { boundary, probesReport } from '../core/boundary.mjs';

// aggregates Map -> {generation, marks, traces, infos, sizes} of the window
// that produced it.
const windowOf = new WeakMap();
let lastGeneration = 0; // the recorder's last window (its last_report())

// The finished window's records (src/boundary/boundary.h: a ReportHeader,
// then its AggrRows, MarkRows and TraceRows) as the reporters' objects.
export function readWindow(nameIds, windowInfos) {
  const { reportHeader: H, aggrRow: A, markRow: M, traceRow: T } = boundary().records;
  const f = probesReport();
  const names = [];
  for (const [name, id] of nameIds) names[id] = name;
  const startedAt = f[H.startedAt];
  let i = H.size;
  const aggregates = new Map();
  for (let k = 0; k < f[H.aggregateCount]; k++, i += A.size) {
    aggregates.set(names[f[i + A.name]], {
      count: f[i + A.count],
      sum: f[i + A.sum],
      avg: f[i + A.avg],
      max: f[i + A.max],
      min: f[i + A.min],
      p50: f[i + A.p50],
      p90: f[i + A.p90],
      p99: f[i + A.p99],
    });
  }
  const markEvents = [];
  for (let k = 0; k < f[H.markCount]; k++, i += M.size) {
    const t = f[i + M.timestamp];
    const e = { name: names[f[i + M.name]], start: t - startedAt, timestamp: t };
    if (f[i + M.info] >= 0) e.info = windowInfos[f[i + M.info]];
    markEvents.push(e);
  }
  const traceEvents = [];
  for (let k = 0; k < f[H.traceCount]; k++, i += T.size) {
    const t = f[i + T.timestamp];
    const e = { name: names[f[i + T.name]], start: t - startedAt, timestamp: t, duration: f[i + T.duration] };
    if (f[i + T.info] >= 0) e.info = windowInfos[f[i + T.info]];
    traceEvents.push(e);
  }
  // What the core's caps dropped this window (src/probes/window.h): on the
  // Map, not enumerable — the seed's aggregates stay a Map of names.
  Object.defineProperty(aggregates, 'dropped', { value: f[H.aggregatesDropped] });
  Object.defineProperty(aggregates, 'namesDropped', { value: f[H.namesDropped] });
  const marks = { events: markEvents, dropped: f[H.marksDropped] };
  const traces = { events: traceEvents, dropped: f[H.tracesDropped], incomplete: f[H.tracesIncomplete] };
  lastGeneration = f[H.generation];
  windowOf.set(aggregates, {
    generation: f[H.generation],
    marks,
    traces,
    infos: windowInfos,
    sizes: [f[H.aggregateCount], f[H.markCount], f[H.traceCount]],
  });
  return [aggregates, marks, traces];
}

/** The window number of a results Map this module produced, else 0. Internal. */
export function windowNumber(aggregates) {
  const w = aggregates && windowOf.get(aggregates);
  return w ? w.generation : 0;
}

/**
 * Which of (aggregates, marks, traces) are the unchanged results of the
 * recorder's last window, so they can be read straight from it: null, or
 * {generation, parts (boundary().windowParts bits), infos (by slot)}.
 * A results object someone resized, or of an older window, is not. Internal.
 */
export function windowSource(aggregates, marks, traces) {
  const w = aggregates instanceof Map ? windowOf.get(aggregates) : undefined;
  if (!w || w.generation !== lastGeneration) return null;
  const [nAggr, nMarks, nTraces] = w.sizes;
  const P = boundary().windowParts;
  let parts = 0;
  if (aggregates.size === nAggr) parts |= P.Aggregates;
  if (marks === w.marks && marks.events.length === nMarks) parts |= P.Marks;
  if (traces === w.traces && traces.events.length === nTraces) parts |= P.Traces;
  return parts ? { generation: w.generation, parts, infos: w.infos } : null;
}
