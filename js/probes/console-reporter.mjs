// The console reporter (seed 004 "Console Reporter"): a window's results (or
// whatever a manual call gives) made into the report console-format.mjs
// prints. Info values are JSON text by the one rule of js/probes/info.mjs.
import { WebprofError } from '../core/instance.mjs';
import { windowNumber, windowSpan } from './probes.mjs';
import { infoJson } from './info.mjs';
import { SORT_KEYS, formatConsoleReport } from './console-format.mjs';

// One rule for info text (js/probes/info.mjs); null reads "[unprintable]".
function infoText(info) {
  const text = infoJson(info);
  return text === '' ? null : text;
}

/**
 * A reporter printing aggregates, traces and marks with console.log.
 * @param {{sortBy?: string, filter?: string | ((name: string) => boolean), header?: boolean}} [options]
 */
export function createConsoleReporter(options) {
  const o = options || {};
  const sortBy = o.sortBy === undefined ? 'sum' : String(o.sortBy);
  const filter = o.filter;
  const header = o.header === undefined ? true : !!o.header;
  if (filter !== undefined && typeof filter !== 'string' && typeof filter !== 'function') {
    throw new WebprofError('webprof: createConsoleReporter filter must be a string prefix or a function');
  }
  if (!SORT_KEYS.includes(sortBy))
    throw new WebprofError(
      `webprof: createConsoleReporter: sortBy must be one of ${SORT_KEYS.join(', ')}`,
      'InvalidSortKey',
    );
  return function consoleReporter(aggregates, marks, traces) {
    console.log(formatConsole(aggregates, marks, traces, sortBy, filter, header));
  };
}

function formatConsole(aggregates, marks, traces, sortBy, filter, header) {
  const markEvents = (marks && marks.events) || [];
  const traceEvents = (traces && traces.events) || [];
  // A window's own results Map knows the window's bounds and what its caps
  // dropped; anything else is timed from its events.
  const span = windowSpan(aggregates);
  const first = markEvents[0] || traceEvents[0];
  const startedAt = span ? span.startedAt : first ? first.timestamp - first.start : 0;
  const last = markEvents[markEvents.length - 1];
  const endedAt = span ? span.endedAt : last ? last.timestamp : startedAt;
  const event = (e, extra) => {
    const row = { name: e.name, timestamp: e.timestamp, ...extra };
    if ('info' in e) row.info = infoText(e.info);
    return row;
  };
  const report = {
    generation: windowNumber(aggregates),
    startedAt,
    endedAt,
    aggregates: aggregates ? [...aggregates] : [],
    traces: traceEvents.map((e) => event(e, { duration: e.duration })),
    // The automatic boundaries: first 'start' and last 'end'.
    marks: markEvents.map((e, i) =>
      event(e, {
        boundary: (i === 0 && e.name === 'start') || (i === markEvents.length - 1 && e.name === 'end'),
      }),
    ),
    marksDropped: (marks && marks.dropped) || 0,
    tracesDropped: (traces && traces.dropped) || 0,
    tracesIncomplete: (traces && traces.incomplete) || 0,
    aggregatesDropped: (aggregates && aggregates.dropped) || 0,
    namesDropped: (aggregates && aggregates.namesDropped) || 0,
  };
  const names = [
    ...report.aggregates.map(([name]) => name),
    ...[...traceEvents, ...markEvents].map((e) => e.name),
  ];
  return formatConsoleReport(report, sortBy, shownBy(filter, names), header);
}

// The filter as a verdict per name: a predicate is asked once for each name
// shown, in the order they appear.
function shownBy(filter, names) {
  if (typeof filter === 'string') return (name) => name.startsWith(filter);
  if (typeof filter !== 'function') return () => true;
  const allowed = new Set();
  for (const name of new Set(names)) {
    let keep = false;
    try {
      keep = !!filter(name);
    } catch (e) {
      console.error('[webprof] the console reporter filter threw:', e);
    }
    if (keep) allowed.add(name);
  }
  return (name) => allowed.has(name);
}

/** The default reporter: console output sorted by sum, with a header. */
export const consoleReporter = (aggregates, marks, traces) =>
  createConsoleReporter()(aggregates, marks, traces);
