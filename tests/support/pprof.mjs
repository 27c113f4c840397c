// `go tool pprof -top` (Debian's golang-go) as the independent reader of
// webprof's pprof output: run on a file or a URL, its rows parsed.
import { tmpdir } from 'node:os';
import { spawnText } from './spawn.mjs';

export const UNIT_NS = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, mins: 60e9, hrs: 3600e9 };

/**
 * `go tool pprof -top` of `source` listing every function:
 * {status, stdout, stderr, rows: [{name, flatNs, printedTo}]} in the order
 * printed. pprof prints few digits ("0.17s" for 167.2 ms): `printedTo` is
 * half a unit of the last digit, how exact `flatNs` is.
 */
export async function goPprofTop(source, { tmp = tmpdir() } = {}) {
  const args = ['tool', 'pprof', '-top', '-nodecount=1000', '-nodefraction=0', source];
  const r = await spawnText('go', args, { env: { ...process.env, PPROF_TMPDIR: tmp } }).catch((e) => {
    throw new Error(`golang-go is needed (.ci/setup.sh installs it): ${e.message}`);
  });
  const rows = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*([\d.]+)(ns|us|µs|ms|s|mins|hrs)?\s+[\d.]+%\s+[\d.]+%\s+[\d.]+\S*\s+[\d.]+%\s+(.+)$/.exec(
      line,
    );
    if (!m) continue;
    const unit = m[2] ? UNIT_NS[m[2]] : 1;
    const decimals = (m[1].split('.')[1] || '').length;
    rows.push({ name: m[3].trim(), flatNs: Number(m[1]) * unit, printedTo: (unit * 10 ** -decimals) / 2 });
  }
  return { ...r, rows };
}
