// Where the share error comes from: per frame, native's self/inclusive share
// against the polyfill's, from the traces tests/bench/accuracy_bench.mjs
// saved (build/bench/accuracy/LIB.WHICH.json).
//   node tests/bench/accuracy/explain.mjs LIB [which = poly1] [rows = 20]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shares } from './metrics.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'build/bench/accuracy');
const [lib, which = 'poly1', rows = '20'] = process.argv.slice(2);
const load = (w) => JSON.parse(readFileSync(join(dir, `${lib}.${w}.json`), 'utf8'));
const ref = shares(load('nativeA'));
const again = shares(load('nativeB'));
const other = shares(load(which));
const keys = new Set([
  ...ref.self.keys(),
  ...other.self.keys(),
  ...ref.inclusive.keys(),
  ...other.inclusive.keys(),
]);
const f = (x) => (x || 0).toFixed(1).padStart(5);
const out = [...keys]
  .map((k) => {
    const [name, , line, col] = k.split('\u0000');
    return {
      fn: `${name || '(anon)'}:${line}:${col}`,
      ns: ref.self.get(k) || 0,
      nb: again.self.get(k) || 0,
      ps: other.self.get(k) || 0,
      ni: ref.inclusive.get(k) || 0,
      pi: other.inclusive.get(k) || 0,
    };
  })
  .sort(
    (a, b) =>
      Math.max(Math.abs(b.ns - b.ps), Math.abs(b.ni - b.pi) / 2) -
      Math.max(Math.abs(a.ns - a.ps), Math.abs(a.ni - a.pi) / 2),
  )
  .slice(0, Number(rows));
console.log(`${lib} ${which}: samples native ${ref.samples}, ${which} ${other.samples}`);
console.log('self: native  nativeB  poly | incl: native  poly | frame');
for (const r of out)
  console.log(`      ${f(r.ns)}  ${f(r.nb)}  ${f(r.ps)} |       ${f(r.ni)}  ${f(r.pi)} | ${r.fn}`);
