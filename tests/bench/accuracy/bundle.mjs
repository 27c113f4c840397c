// The third-party accuracy benches' bundles: tests/bench/accuracy/<lib>.mjs
// bundled by esbuild (build/bench/accuracy/<lib>.plain.mjs) and put through
// the sampling transform (<lib>.dense.mjs; <lib>.lean.mjs without exit
// checks); resolves to the dense bundle's probe-site count. With
// WEBPROF_DENSE_BUNDLE=path/{lib}.mjs the dense bundle is that file instead
// (`{lib}` the library), e.g. what an older transform wrote from the same
// plain bundle, to compare both in one bench. With
// WEBPROF_BENCH_RUNTIME=/url/webprof.mjs the transformed bundles import the
// runtime from there (the benches then load the page with &runtime=: another
// build of webprof, e.g. main's, compared in the same run).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';
import * as esbuild from 'esbuild';
import { transformForSampling } from '../../../dist/transform-esbuild.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const RUNTIME = process.env.WEBPROF_BENCH_RUNTIME || '/dist/webprof.mjs';

export async function bundle(lib) {
  const out = join(root, 'build/bench/accuracy');
  mkdirSync(out, { recursive: true });
  const plain = join(out, `${lib}.plain.mjs`);
  await esbuild.build({
    entryPoints: [join(root, 'tests/bench/accuracy', `${lib}.mjs`)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: plain,
    logLevel: 'silent',
  });
  // dense: the default transform; lean: without exit checks (what they cost).
  let sites = 0;
  for (const [name, exitChecks] of [
    ['dense', true],
    ['lean', false],
  ]) {
    const r = await transformForSampling(readFileSync(plain, 'utf8'), { runtime: RUNTIME, exitChecks });
    if (r.status !== 'Ok') throw new Error(`transform of the ${lib} bundle: ${r.status}`);
    try {
      parse(r.code, { ecmaVersion: 'latest', sourceType: 'module' });
    } catch (e) {
      throw new Error(`the transformed ${lib} bundle does not parse: ${e.message}`);
    }
    const other = name === 'dense' && process.env.WEBPROF_DENSE_BUNDLE;
    writeFileSync(
      join(out, `${lib}.${name}.mjs`),
      other ? readFileSync(other.replaceAll('{lib}', lib)) : r.code,
    );
    if (exitChecks) sites = r.sites;
  }
  return sites;
}
