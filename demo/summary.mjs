// The demo's summary: top functions by self time (from the samples' leaf
// frames), the probes' aggregates with percentiles, and the marks.
import { summarize } from 'webprof';

/** [{name, samples, selfMs}] sorted by self time (webprof's summarize()). */
export function summarizeProfile(trace, intervalMs) {
  const s = summarize(trace, { top: 50 });
  const rows = s.top
    .filter((r) => r.self > 0)
    .map((r) => ({ name: label(r), samples: r.self, selfMs: r.self * intervalMs }));
  const idle = s.samples - s.withStack;
  if (idle) rows.push({ name: '(no JS)', samples: idle, selfMs: idle * intervalMs });
  return rows.sort((a, b) => b.samples - a.samples);
}

function label(r) {
  if (!r.url) return r.name;
  return `${r.name} ${r.url.split('/').pop()}:${r.line ?? '?'}`;
}

function table(headers, rows) {
  const t = document.createElement('table');
  const head = t.createTHead().insertRow();
  for (const h of headers) head.appendChild(Object.assign(document.createElement('th'), { textContent: h }));
  const body = t.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    for (const v of r) tr.insertCell().textContent = typeof v === 'number' ? fmt(v) : String(v);
  }
  return t;
}

const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

export function renderSummary(el, top, result) {
  const parts = [];
  const h = (text) => Object.assign(document.createElement('h3'), { textContent: text });
  parts.push(
    h(
      `Top functions by self time (${result.profile.samples.length} samples, interval ${result.interval} ms)`,
    ),
  );
  parts.push(
    table(
      ['function', 'samples', 'self ms'],
      top.slice(0, 15).map((r) => [r.name, r.samples, r.selfMs]),
    ),
  );
  parts.push(h('Aggregates (probes aggrStart/aggrEnd), ms'));
  const aggr = [...result.aggregates].map(([name, a]) => [
    name,
    a.count,
    a.sum,
    a.avg,
    a.p50 ?? '',
    a.p90 ?? '',
    a.p99 ?? '',
    a.max,
  ]);
  parts.push(table(['name', 'count', 'sum', 'avg', 'p50', 'p90', 'p99', 'max'], aggr));
  parts.push(h('Marks'));
  const t0 = result.marks.events[0]?.timestamp ?? 0;
  parts.push(
    table(
      ['name', 'at ms', 'info'],
      result.marks.events.map((m) => [
        m.name,
        m.timestamp - t0,
        m.info === undefined ? '' : JSON.stringify(m.info),
      ]),
    ),
  );
  el.replaceChildren(...parts);
}
