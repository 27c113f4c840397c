// Source map decoding + lookup, same run, same map: webprof's core (Wasm)
// against the `source-map` npm package (0.7.4, Wasm-backed, and 0.6.1, pure
// JS) and @jridgewell/trace-mapping, in Node and in headless Chromium.
// The map: a generated app of many small functions bundled and minified by
// esbuild (≥ 5 MB of map). Work measured per library: decode the map text,
// then look up the original position of every mapping's generated position
// (positions listed beforehand, outside the timing); the contenders and the
// alternating runner are tests/bench/source-map/libraries.mjs. In Chromium
// the page (tests/bench/source-map/page.html) imports dist/webprof.mjs, the
// entry users import, and source-map's browser build; 0.6.1 is left out
// there (its UMD global is 0.7's name, and it is 10x behind anyway).
// Run: node tests/bench/source_map_bench.mjs [--runs N] [--in node,chromium]
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { ready, openSourceMap } from 'webprof';
import { contenders, measure, table } from './source-map/libraries.mjs';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';

const require = createRequire(import.meta.url);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('--runs', 5));
const WHERE = arg('--in', 'node,chromium').split(',');

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
const traceMapping = require('@jridgewell/trace-mapping');
const list = [];
traceMapping.eachMapping(new traceMapping.TraceMap(text), (m) =>
  list.push(m.generatedLine, m.generatedColumn + 1),
);
const positions = Uint32Array.from(list);
const count = positions.length / 2;

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(
  `map: ${(text.length / 1e6).toFixed(1)} MB, ${count} mappings; median of ${RUNS} alternating runs after a warm-up (decode + every lookup); load average ${load()}`,
);

if (WHERE.includes('node')) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const all = contenders(text, positions, {
    openSourceMap,
    SourceMapConsumer07: require('source-map-wasm'),
    SourceMapConsumer06: require('source-map'),
    traceMapping,
  });
  const results = await measure(all, count, RUNS, gc);
  console.log(`Node ${process.versions.node}:`);
  for (const line of table(results)) console.log(line);
}

if (WHERE.includes('chromium')) {
  // The page fetches the same map and positions from here.
  const data = { '/smbench/map.json': text, '/smbench/positions.bin': Buffer.from(positions.buffer) };
  const serve = (req, res, url) => {
    if (!(url.pathname in data)) return false;
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' });
    res.end(data[url.pathname]);
    return true;
  };
  const server = await startStaticServer({ port: Number(process.env.WEBPROF_PORT || 0), hooks: [serve] });
  const browser = await chromium.launch(chromiumLaunchOptions({ extraArgs: ['--js-flags=--expose-gc'] }));
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(e.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/tests/bench/source-map/page.html`);
    await page.waitForFunction(() => window.benchReady, null, { timeout: 60_000 });
    const results = await page.evaluate((runs) => window.runBench(runs), RUNS);
    console.log(`Chromium ${browser.version()}:`);
    for (const line of table(results)) console.log(line);
  } finally {
    await browser.close();
    server.close();
  }
}
console.log(`load average at the end ${load()}`);
