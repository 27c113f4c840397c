// Source map decoding + lookup, same run, same map: webprof's core (Wasm)
// against the `source-map` npm package and @jridgewell/trace-mapping.
// The map: a generated app of many small functions bundled and minified by
// esbuild (≥ 5 MB of map). Work measured per library: decode the map text,
// then look up the original position of every mapping's generated position
// (positions listed beforehand, outside the timing).
// Run: node tests/bench/source_map_bench.mjs [--runs N]
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';
import { ready, openSourceMap } from 'webprof';

const require = createRequire(import.meta.url);
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;

function generateApp(dir, files = 60, perFile = 400) {
  mkdirSync(join(dir, 'src'), { recursive: true });
  const imports = [];
  for (let f = 0; f < files; f++) {
    let code = '';
    for (let i = 0; i < perFile; i++) {
      code += `export function handler${f}_${i}(input, options) {
  const value = input.items.map((item) => item.weight * options.scale + ${i});
  if (value.length > ${i % 7}) return value.reduce((a, b) => a + b, 0) / value.length;
  return helper${f}_${i}(value, options.fallback ?? ${i});
}
const helper${f}_${i} = (list, fallback) => (list.length ? list[0] : fallback);
`;
    }
    writeFileSync(join(dir, 'src', `m${f}.js`), code);
    imports.push(`export * from './m${f}.js';`);
  }
  writeFileSync(join(dir, 'src', 'index.js'), imports.join('\n'));
}

const dir = mkdtempSync(join(tmpdir(), 'webprof-smbench-'));
generateApp(dir);
await esbuild.build({
  entryPoints: [join(dir, 'src', 'index.js')],
  bundle: true,
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  format: 'esm',
  outfile: join(dir, 'out.js'),
  logLevel: 'silent',
});
const text = readFileSync(join(dir, 'out.js.map'), 'utf8');
await ready;

// Every mapping's generated position, 1-based lines and columns.
const { TraceMap, originalPositionFor, eachMapping } = require('@jridgewell/trace-mapping');
const positions = [];
eachMapping(new TraceMap(text), (m) => positions.push(m.generatedLine, m.generatedColumn + 1));
const count = positions.length / 2;

const libraries = {
  webprof: async () => {
    const map = await openSourceMap(text);
    try {
      const rows = map.lookup(positions);
      let hits = 0;
      for (let i = 0; i < rows.length; i += 4) if (rows[i] !== 0xffffffff) hits++;
      return hits;
    } finally {
      map.dispose();
    }
  },
  'source-map': () => {
    const { SourceMapConsumer } = require('source-map');
    const c = new SourceMapConsumer(text);
    let hits = 0;
    for (let i = 0; i < positions.length; i += 2)
      if (c.originalPositionFor({ line: positions[i], column: positions[i + 1] - 1 }).source !== null) hits++;
    return hits;
  },
  '@jridgewell/trace-mapping': () => {
    const t = new TraceMap(text);
    let hits = 0;
    for (let i = 0; i < positions.length; i += 2)
      if (originalPositionFor(t, { line: positions[i], column: positions[i + 1] - 1 }).source !== null)
        hits++;
    return hits;
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const results = {};
for (const [name, fn] of Object.entries(libraries)) {
  const times = [];
  let hits = 0;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    hits = await fn();
    times.push(performance.now() - t0);
  }
  if (hits !== count) throw new Error(`${name} mapped ${hits} of ${count} positions`);
  results[name] = median(times);
}
console.log(
  `map: ${(text.length / 1e6).toFixed(1)} MB, ${count} mappings; median of ${RUNS} runs (decode + every lookup)`,
);
for (const [name, ms] of Object.entries(results))
  console.log(
    `  ${name.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms   ${name === 'webprof' ? '' : `webprof is ${(ms / results.webprof).toFixed(2)}x faster`}`,
  );
