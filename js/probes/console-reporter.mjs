// The console reporter (seed 004 "Console Reporter"). The text is made by the
// core (src/reporter.h) from whatever the reporter is given, so a window's
// results and a manual call with plain objects print the same way. Info
// values are JSON-stringified here, or flagged unprintable for the core.
import { core, isReady, checkId, writeScratch, WebprofError } from '../core/core.mjs';
import { probeNameId, windowNumber } from './probes.mjs';

function infoText(info) {
  try {
    const s = JSON.stringify(info);
    return typeof s === 'string' ? s : null;
  } catch {
    return null; // a cycle, a BigInt, a throwing toJSON
  }
}

function sortKey(sortBy) {
  const { ptr, len } = writeScratch(String(sortBy));
  return checkId(core()._wp_probes_sort_key(ptr, len), 'createConsoleReporter');
}

/**
 * A reporter printing aggregates, traces and marks with console.log.
 * @param {{sortBy?: string, filter?: string | ((name: string) => boolean), header?: boolean}} [options]
 */
export function createConsoleReporter(options) {
  const o = options || {};
  const sortBy = o.sortBy === undefined ? 'sum' : o.sortBy;
  const filter = o.filter;
  const header = o.header === undefined ? true : !!o.header;
  if (filter !== undefined && typeof filter !== 'string' && typeof filter !== 'function') {
    throw new WebprofError('webprof: createConsoleReporter filter must be a string prefix or a function');
  }
  let key = null;
  if (isReady()) key = sortKey(sortBy); // invalid sortBy fails here when the core is up
  return function consoleReporter(aggregates, marks, traces) {
    if (key === null) key = sortKey(sortBy);
    console.log(formatConsole(aggregates, marks, traces, key, filter, header));
  };
}

function formatConsole(aggregates, marks, traces, key, filter, header) {
  const m = core();
  const markEvents = (marks && marks.events) || [];
  const traceEvents = (traces && traces.events) || [];
  const first = markEvents[0] || traceEvents[0];
  const startedAt = first ? first.timestamp - first.start : 0;
  const last = markEvents[markEvents.length - 1];
  const endedAt = last ? last.timestamp : startedAt;
  const gen = windowNumber(aggregates);
  m._wp_probes_fmt_begin(
    gen,
    startedAt,
    endedAt,
    (marks && marks.dropped) || 0,
    (traces && traces.dropped) || 0,
    (traces && traces.incomplete) || 0,
  );
  const shown = new Set();
  let slot = 0;
  const withInfo = (e) => {
    if (!('info' in e)) return -1;
    const text = infoText(e.info);
    if (text === null) {
      m._wp_probes_fmt_info(slot, 0, 0, 0);
    } else {
      const { ptr, len } = writeScratch(text);
      m._wp_probes_fmt_info(slot, 1, ptr, len);
    }
    return slot++;
  };
  if (aggregates) {
    for (const [name, a] of aggregates) {
      shown.add(name);
      m._wp_probes_fmt_aggr(probeNameId(name), a.count, a.sum, a.avg, a.max, a.min, a.p50, a.p90, a.p99);
    }
  }
  for (const e of traceEvents) {
    shown.add(e.name);
    m._wp_probes_fmt_trace(probeNameId(e.name), e.timestamp, e.duration, withInfo(e));
  }
  markEvents.forEach((e, i) => {
    // The automatic boundaries: first 'start' and last 'end'.
    const boundary = (i === 0 && e.name === 'start') || (i === markEvents.length - 1 && e.name === 'end');
    shown.add(e.name);
    m._wp_probes_fmt_mark(probeNameId(e.name), e.timestamp, withInfo(e), boundary ? 1 : 0);
  });
  let mode = 0;
  let ptr = 0;
  let len = 0;
  if (typeof filter === 'string') {
    mode = 1;
    ({ ptr, len } = writeScratch(filter));
  } else if (typeof filter === 'function') {
    mode = 2;
    for (const name of shown) {
      let keep = false;
      try {
        keep = !!filter(name);
      } catch (e) {
        console.error('[webprof] the console reporter filter threw:', e);
      }
      if (keep) m._wp_probes_fmt_allow(probeNameId(name));
    }
  }
  const textPtr = m._wp_probes_fmt_run(key, header ? 1 : 0, mode, ptr, len);
  const bytes = m.HEAPU8.slice(textPtr, textPtr + m._wp_probes_fmt_len());
  return new TextDecoder().decode(bytes);
}

/** The default reporter: console output sorted by sum, with a header. */
export const consoleReporter = (aggregates, marks, traces) =>
  createConsoleReporter()(aggregates, marks, traces);
