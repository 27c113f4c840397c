// The source-map bench's contenders and its runner, shared by Node and the
// Chromium page (tests/bench/source_map_bench.mjs): each contender decodes
// the map text, then looks up every position in `positions` (generated line,
// 1-based column pairs); it returns how many lookups hit and when decoding
// ended (libraries that decode lazily are made to decode first, as their
// first lookup would). Libraries are passed in, so the same code runs where
// each is loaded its own way.

/** Contenders for whichever libraries `deps` holds. */
export function contenders(text, positions, deps) {
  const all = {};
  // Counts the hits of `find(line, column0)` over every position.
  const lookAll = (find) => {
    let hits = 0;
    for (let i = 0; i < positions.length; i += 2) if (find(positions[i], positions[i + 1] - 1)) hits++;
    return hits;
  };
  if (deps.openSourceMap)
    all.webprof = async () => {
      const map = await deps.openSourceMap(text);
      const decoded = performance.now();
      try {
        const rows = map.lookup(positions);
        let hits = 0;
        for (let i = 0; i < rows.length; i += 4) if (rows[i] !== 0xffffffff) hits++;
        return { hits, decoded };
      } finally {
        map.dispose();
      }
    };
  if (deps.SourceMapConsumer07) {
    const { SourceMapConsumer } = deps.SourceMapConsumer07;
    // `_getMappingsPtr()` is the lazy decode its first lookup would run.
    const open = async () => {
      const c = await new SourceMapConsumer(text);
      c._getMappingsPtr();
      return c;
    };
    // Its one lookup by generated position, as documented.
    all['source-map 0.7.4'] = async () => {
      const c = await open();
      const decoded = performance.now();
      try {
        const hits = lookAll((line, column) => c.originalPositionFor({ line, column }).source !== null);
        return { hits, decoded };
      } finally {
        c.destroy();
      }
    };
    // Its lower bound: the same Wasm lookup called through the consumer's
    // private fields, skipping the result object and the per-hit source URL
    // (webprof's rows hold source ids too). Not an API a user has.
    all['source-map 0.7.4 raw'] = async () => {
      const c = await open();
      const decoded = performance.now();
      try {
        const w = c._wasm;
        const ptr = c._getMappingsPtr();
        let hit = null;
        const take = (m) => (hit = m);
        const hits = lookAll((line, column) => {
          hit = null;
          w.withMappingCallback(take, () => w.exports.original_location_for(ptr, line - 1, column, 1));
          return hit !== null && hit.generatedLine === line && hit.source !== null;
        });
        return { hits, decoded };
      } finally {
        c.destroy();
      }
    };
  }
  if (deps.SourceMapConsumer06) {
    const { SourceMapConsumer } = deps.SourceMapConsumer06;
    all['source-map 0.6.1'] = () => {
      const c = new SourceMapConsumer(text);
      void c._generatedMappings; // its lazy decode
      const decoded = performance.now();
      const hits = lookAll((line, column) => c.originalPositionFor({ line, column }).source !== null);
      return { hits, decoded };
    };
  }
  if (deps.traceMapping) {
    const { TraceMap, decodedMappings, originalPositionFor } = deps.traceMapping;
    all['@jridgewell/trace-mapping'] = () => {
      const t = new TraceMap(text);
      decodedMappings(t); // its lazy decode
      const decoded = performance.now();
      const hits = lookAll((line, column) => originalPositionFor(t, { line, column }).source !== null);
      return { hits, decoded };
    };
  }
  return all;
}

/**
 * Medians (ms) per contender of the total and of its decode and lookup
 * parts, over `runs` rounds after one untimed warm-up round; each round runs
 * every contender once, the order rotating, a collection (when `gc` is
 * given) before each. Every lookup must hit.
 */
export async function measure(all, count, runs, gc) {
  const names = Object.keys(all);
  const times = Object.fromEntries(names.map((n) => [n, { total: [], decode: [], lookup: [] }]));
  for (let r = -1; r < runs; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + Math.max(r, 0)) % names.length];
      gc?.();
      const t0 = performance.now();
      const { hits, decoded } = await all[name]();
      const t1 = performance.now();
      if (hits !== count) throw new Error(`${name} mapped ${hits} of ${count} positions`);
      if (r < 0) continue;
      times[name].total.push(t1 - t0);
      times[name].decode.push(decoded - t0);
      times[name].lookup.push(t1 - decoded);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const out = {};
  for (const n of names)
    out[n] = Object.fromEntries(Object.entries(times[n]).map(([k, v]) => [k, median(v)]));
  return out;
}

/** The table's lines: medians, and how many times faster webprof is in total. */
export function table(results) {
  const f = (ms) => ms.toFixed(1).padStart(8);
  const lines = [
    `  ${'library'.padEnd(28)} ${'total'.padStart(8)} ms = ${'decode'.padStart(8)} + ${'lookups'.padStart(8)}`,
  ];
  for (const [name, { total, decode, lookup }] of Object.entries(results)) {
    const ratio =
      name === 'webprof' ? '' : `webprof is ${(total / results.webprof.total).toFixed(2)}x faster`;
    lines.push(`  ${name.padEnd(28)} ${f(total)} ms = ${f(decode)} + ${f(lookup)}   ${ratio}`);
  }
  return lines;
}
