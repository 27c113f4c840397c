// The console reporter's text (seed 004 "Console Reporter"), from a probes
// window's results objects (js/probes/results.mjs) or whatever a manual call
// gives. The rules:
// - sortBy orders the aggregates only (descending, stable; `name` ascending
//   in UTF-8 byte order); traces and marks keep their recorded order;
// - the filter (a name prefix, or a predicate's verdict per name) applies to
//   aggregates, traces and explicit marks; the start and end boundaries are
//   never hidden;
// - `header` prints the title line (" #N" for a window's own results);
// - the info column appears in a table only when one of its shown events has
//   info; info that JSON cannot write reads `[unprintable]`;
// - what the window dropped or left incomplete each gets a notice.
// Numbers are printf's "%12.3f" cells, written exactly (fixed()). It runs
// where the reporter runs, so neither the page's core nor the probes' carries
// a formatter (docs/ARCHITECTURE.md "What a page loads").

export const SORT_KEYS = ['count', 'sum', 'avg', 'max', 'min', 'p50', 'p90', 'p99', 'name'];
const COLUMNS = ['sum', 'avg', 'max', 'min', 'p50', 'p90', 'p99'];

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const TEN = BigInt(10);
const MANTISSA = (BigInt(1) << BigInt(52)) - BigInt(1);

/**
 * `v` as printf's "%*.*f" writes it: the exact decimal value of the double
 * rounded to `decimals` places, half to even (a tie is exact: the double is
 * a midpoint), "nan"/"inf" and "-" for a set sign bit, right-aligned.
 */
export function fixed(value, width, decimals) {
  const v = Number(value);
  f64[0] = v;
  const bits = u64[0];
  const sign = bits >> BigInt(63) ? '-' : '';
  let text;
  if (Number.isNaN(v)) text = `${sign}nan`;
  else if (!Number.isFinite(v)) text = `${sign}inf`;
  else {
    // |v| = m * 2^e exactly.
    const biased = Number((bits >> BigInt(52)) & BigInt(0x7ff));
    let m = bits & MANTISSA;
    let e = -1074;
    if (biased > 0) {
      m |= MANTISSA + BigInt(1);
      e = biased - 1075;
    }
    let n = m * TEN ** BigInt(decimals);
    if (e >= 0) n <<= BigInt(e);
    else {
      const den = BigInt(1) << BigInt(-e);
      const q = n / den;
      const twice = (n - q * den) * BigInt(2);
      n = twice > den || (twice === den && q % BigInt(2) === BigInt(1)) ? q + BigInt(1) : q;
    }
    const digits = n.toString().padStart(decimals + 1, '0');
    const whole = digits.length - decimals;
    text = sign + digits.slice(0, whole) + (decimals > 0 ? `.${digits.slice(whole)}` : '');
  }
  return text.padStart(width);
}

// UTF-16 code units reordered so that comparing them orders strings as their
// UTF-8 bytes (code points) do: surrogates above U+E000..U+FFFF.
const unit = (c) => (c < 0xd800 ? c : c < 0xe000 ? c + 0x2000 : c - 0x800);
function utf8Less(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unit(x) < unit(y);
  }
  return a.length < b.length;
}

const count = (n) => String(Math.trunc(n));
const notice = (n, what) => (n ? `notice: ${count(n)} ${what}\n` : '');

/**
 * The text for a report {generation, startedAt, endedAt, aggregates: [[name,
 * {count, sum, …}]], traces: [{name, timestamp, duration, info?}], marks:
 * [{name, timestamp, boundary, info?}], marksDropped, tracesDropped,
 * tracesIncomplete, aggregatesDropped, namesDropped}; info values are JSON
 * text or null (unprintable). `shown(name)` says whether the filter keeps a name.
 */
export function formatConsoleReport(r, sortBy, shown, header) {
  let out = '';
  if (header) {
    out += '[webprof] probes window';
    if (r.generation) out += ` #${count(r.generation)}`; // 0: data from a manual reporter call
    out += `, ${fixed(r.endedAt - r.startedAt, 0, 3)} ms\n`;
  }
  const aggr = r.aggregates.filter(([name]) => shown(name));
  if (sortBy === 'name') aggr.sort(([a], [b]) => (utf8Less(a, b) ? -1 : utf8Less(b, a) ? 1 : 0));
  else aggr.sort(([, a], [, b]) => (a[sortBy] > b[sortBy] ? -1 : b[sortBy] > a[sortBy] ? 1 : 0));
  out += `aggregates (ms, sorted by ${sortBy})\n`;
  out +=
    '       count         sum         avg         max         min         p50         p90         p99  name\n';
  for (const [name, a] of aggr) {
    out += fixed(Math.trunc(a.count), 12, 0);
    for (const c of COLUMNS) out += fixed(a[c], 12, 3);
    out += `  ${name}\n`;
  }
  const infoCell = (e) => (e.info === null ? '[unprintable]' : e.info);
  const table = (title, columns, events, cells) => {
    const withInfo = events.some((e) => 'info' in e);
    out += `${title}\n${columns}${withInfo ? '  info\n' : '\n'}`;
    for (const e of events) {
      out += `${cells(e)}  ${e.name}`;
      if (withInfo && 'info' in e) out += `  ${infoCell(e)}`;
      out += '\n';
    }
  };
  const start = (e) => fixed(e.timestamp - r.startedAt, 12, 3);
  table(
    'traces (ms)',
    '       start    duration  name',
    r.traces.filter((t) => shown(t.name)),
    (t) => start(t) + fixed(t.duration, 12, 3),
  );
  table(
    'marks (ms)',
    '       start  name',
    r.marks.filter((m) => m.boundary || shown(m.name)),
    start,
  );
  out += notice(r.marksDropped, 'marks dropped (markLimit)');
  out += notice(r.tracesDropped, 'traces dropped (traceLimit)');
  out += notice(r.tracesIncomplete, 'traces incomplete (not ended in the window)');
  out += notice(r.aggregatesDropped, 'aggregate spans dropped (1024 names per window)');
  out += notice(r.namesDropped, 'probe calls dropped (new probe names: 4096 per window)');
  return out;
}
