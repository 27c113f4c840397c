// What the transform's checks cost with no profiler running, on the accuracy
// bench's four npm libraries (tests/bench/accuracy/*.mjs): each bundled by
// esbuild, then run plain, transformed without exit checks (`exitChecks:
// false`) and transformed as by default (entry, loop and exit checks), in
// Node (V8, Chromium's engine) with webprof loaded and its counter parked.
// Rounds interleave the three in a rotating order; printed: medians of the
// per-round ratios to plain (same run), and the bundle sizes.
//   node tests/bench/transform_cost_bench.mjs [rounds = 9] [ms per timing = 150] [libs…]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { transformForSampling } from '../../dist/transform-esbuild.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rounds = Number(process.argv[2] || 9);
const budget = Number(process.argv[3] || 150);
const only = process.argv.slice(4);
const LIBS = ['marked', 'acorn', 'prettier', 'lodash'].filter((l) => !only.length || only.includes(l));
const dist = join(root, 'dist', 'webprof.mjs');
const out = join(root, 'build/bench/transform-cost');
mkdirSync(out, { recursive: true });
const webprof = await import(pathToFileURL(dist).href);
await webprof.ready;

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const lib of LIBS) {
  const plain = join(out, `${lib}.plain.mjs`);
  await esbuild.build({
    entryPoints: [join(root, 'tests/bench/accuracy', `${lib}.mjs`)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: plain,
    logLevel: 'silent',
  });
  const code = readFileSync(plain, 'utf8');
  const files = { plain };
  for (const [name, exitChecks] of [
    ['lean', false],
    ['dense', true],
  ]) {
    const r = await transformForSampling(code, { runtime: dist, exitChecks });
    if (r.status !== 'Ok') throw new Error(`${lib}: ${r.status}`);
    files[name] = join(out, `${lib}.${name}.mjs`);
    writeFileSync(files[name], r.code);
  }
  const mods = {};
  for (const [name, file] of Object.entries(files)) mods[name] = await import(pathToFileURL(file).href);
  const first = mods.plain;
  const texts = first.inputs.map((u) => readFileSync(join(root, u), 'utf8'));
  for (const m of Object.values(mods)) m.setup(texts);
  // Units per timing, from a warm-up of the plain bundle.
  let units = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < budget) {
    await first.unit();
    units++;
  }
  for (const m of Object.values(mods)) for (let i = 0; i < units; i++) await m.unit();
  const ratios = { lean: [], dense: [] };
  const names = Object.keys(mods);
  for (let r = 0; r < rounds; r++) {
    const ms = {};
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      const s = performance.now();
      for (let i = 0; i < units; i++) await mods[name].unit();
      ms[name] = performance.now() - s;
    }
    ratios.lean.push(ms.lean / ms.plain);
    ratios.dense.push(ms.dense / ms.plain);
  }
  const kib = (f) => (readFileSync(f).length / 1024).toFixed(0);
  console.log(
    `${lib}: ${units} units per timing; transformed alone, medians of ${rounds} interleaved rounds: ` +
      `without exit checks x${median(ratios.lean).toFixed(3)}, default x${median(ratios.dense).toFixed(3)} ` +
      `(bundle ${kib(files.plain)} / ${kib(files.lean)} / ${kib(files.dense)} KiB)`,
  );
}
