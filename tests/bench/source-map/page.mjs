// The source-map bench's page: the map and positions come from the driver
// (tests/bench/source_map_bench.mjs), the contenders from libraries.mjs.
import { ready, openSourceMap } from 'webprof';
import * as traceMapping from '@jridgewell/trace-mapping';
import { contenders, measure } from './libraries.mjs';

const SourceMapConsumer07 = window.sourceMap;
SourceMapConsumer07.SourceMapConsumer.initialize({
  'lib/mappings.wasm': new URL('../../../node_modules/source-map-wasm/lib/mappings.wasm', import.meta.url)
    .href,
});
const [text, positions] = await Promise.all([
  fetch('/smbench/map.json').then((r) => r.text()),
  fetch('/smbench/positions.bin')
    .then((r) => r.arrayBuffer())
    .then((b) => new Uint32Array(b)),
  ready,
]);

window.runBench = (runs) =>
  measure(
    contenders(text, positions, { openSourceMap, SourceMapConsumer07, traceMapping }),
    positions.length / 2,
    runs,
    window.gc,
  );
window.benchReady = true;
