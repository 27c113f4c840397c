// The console reporter (seed 004 "Console Reporter"). The text is made by the
// core (src/probes/reporter.h): a window's own unchanged results straight
// from the recorder, anything else (a manual call with plain objects, results
// a reporter resized) from what the reporter is given; both print the same way. Info
// values are JSON text by the one rule of js/probes/info.mjs.
import { probesReady, WebprofError } from '../core/instance.mjs';
import { boundary, checkId, consoleFormat, probesSortKey } from '../core/boundary.mjs';
import { probeNameId, windowNumber, windowSource } from './probes.mjs';
import { infoJson } from './info.mjs';

// One rule for info text (js/probes/info.mjs); the core's "unprintable"
// cell stays for a reporter given no text at all.
function infoText(info) {
  const text = infoJson(info);
  return text === '' ? null : text;
}

function sortKey(sortBy) {
  return checkId(probesSortKey(String(sortBy)), 'createConsoleReporter');
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
  if (probesReady()) key = sortKey(sortBy); // invalid sortBy fails here when the core is up
  return function consoleReporter(aggregates, marks, traces) {
    if (key === null) key = sortKey(sortBy);
    console.log(formatConsole(aggregates, marks, traces, key, filter, header));
  };
}

function formatConsole(aggregates, marks, traces, key, filter, header) {
  const fmt = consoleFormat;
  const markEvents = (marks && marks.events) || [];
  const traceEvents = (traces && traces.events) || [];
  // A window's own unchanged results are formatted from the recorder itself.
  const own = windowSource(aggregates, marks, traces);
  if (own && own.parts === 7 && fmt.window(own.generation)) {
    own.infos.forEach((info, slot) => fmt.info(slot, infoText(info)));
    const names = [...aggregates.keys(), ...traceEvents.map((e) => e.name), ...markEvents.map((e) => e.name)];
    return runFormat(names, key, filter, header);
  }
  const first = markEvents[0] || traceEvents[0];
  const startedAt = first ? first.timestamp - first.start : 0;
  const last = markEvents[markEvents.length - 1];
  const endedAt = last ? last.timestamp : startedAt;
  const gen = windowNumber(aggregates);
  fmt.begin(
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
    fmt.info(slot, infoText(e.info));
    return slot++;
  };
  if (aggregates) {
    for (const [name, a] of aggregates) {
      shown.add(name);
      fmt.aggr(probeNameId(name), a);
    }
  }
  for (const e of traceEvents) {
    shown.add(e.name);
    fmt.trace(probeNameId(e.name), e.timestamp, e.duration, withInfo(e));
  }
  markEvents.forEach((e, i) => {
    // The automatic boundaries: first 'start' and last 'end'.
    const boundaryMark = (i === 0 && e.name === 'start') || (i === markEvents.length - 1 && e.name === 'end');
    shown.add(e.name);
    fmt.mark(probeNameId(e.name), e.timestamp, withInfo(e), boundaryMark);
  });
  return runFormat(shown, key, filter, header);
}

// The filter's verdicts for the names shown, then the core's text.
function runFormat(names, key, filter, header) {
  const fmt = consoleFormat;
  const modes = boundary().consoleFilter;
  let mode = modes.None;
  if (typeof filter === 'string') {
    mode = modes.Prefix;
  } else if (typeof filter === 'function') {
    mode = modes.Allowed;
    for (const name of new Set(names)) {
      let keep = false;
      try {
        keep = !!filter(name);
      } catch (e) {
        console.error('[webprof] the console reporter filter threw:', e);
      }
      if (keep) fmt.allow(probeNameId(name));
    }
  }
  return fmt.run(key, header, mode, mode === modes.Prefix ? filter : undefined);
}

/** The default reporter: console output sorted by sum, with a header. */
export const consoleReporter = (aggregates, marks, traces) =>
  createConsoleReporter()(aggregates, marks, traces);
