// A realistic front-end workload: fetch-like JSON decoding, sorting and
// filtering records, and rendering them into the DOM — instrumented with
// probes (traces for phases, aggregates for hot functions, marks).
import { probes } from './probes.mjs';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
let seed = 7;
function random() {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}

export function makePayload(n) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push({
      id: i,
      name: `${WORDS[i % WORDS.length]}-${Math.floor(random() * 1e6)}`,
      price: Math.round(random() * 100000) / 100,
      tags: [WORDS[(i * 3) % 10], WORDS[(i * 7) % 10]],
      stock: Math.floor(random() * 50),
    });
  }
  return JSON.stringify({ rows, generated: Date.now() });
}

function decodePayload(text) {
  const id = probes.aggrStart('json:parse');
  const data = JSON.parse(text);
  probes.aggrEnd(id);
  return data.rows;
}

function compareRows(a, b) {
  return a.price - b.price || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function sortRows(rows) {
  const id = probes.aggrStart('rows:sort');
  const sorted = rows.slice().sort(compareRows);
  probes.aggrEnd(id);
  return sorted;
}

function filterRows(rows, tag) {
  const id = probes.aggrStart('rows:filter');
  const out = rows.filter((r) => r.stock > 0 && r.tags.includes(tag));
  probes.aggrEnd(id);
  return out;
}

function renderRow(row) {
  const tr = document.createElement('tr');
  for (const v of [row.id, row.name, row.price.toFixed(2), row.tags.join(' '), row.stock]) {
    const td = document.createElement('td');
    td.textContent = String(v);
    tr.appendChild(td);
  }
  return tr;
}

function renderTable(table, rows) {
  const id = probes.aggrStart('render:table');
  const body = document.createElement('tbody');
  for (const row of rows.slice(0, 200)) body.appendChild(renderRow(row));
  table.replaceChildren(body);
  // Force layout, as a real app reading sizes after rendering would.
  const height = table.offsetHeight;
  probes.aggrEnd(id);
  return height;
}

/** One round of the workload; returns a small summary. */
export function runRound(table, round) {
  const t = probes.traceStart('round');
  const payload = makePayload(2000);
  const pt = probes.traceStart('decode');
  const rows = decodePayload(payload);
  probes.traceEnd(pt, { bytes: payload.length });
  const st = probes.traceStart('sort+filter');
  const visible = filterRows(sortRows(rows), WORDS[round % WORDS.length]);
  probes.traceEnd(st, { rows: visible.length });
  const rt = probes.traceStart('render');
  const height = renderTable(table, visible);
  probes.traceEnd(rt);
  if (round === 0) probes.mark('first-render', { rows: visible.length });
  probes.traceEnd(t, { round });
  return { rows: visible.length, height };
}
