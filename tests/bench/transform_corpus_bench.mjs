// The transform corpus property over every .js/.mjs/.cjs file in the
// project's own node_modules (tests/support/transform-check.mjs): files
// tried, files acorn parses, failures (must be 0), files the scanner left
// unsampled, and the transform's throughput against acorn parsing the same
// files in the same run (the baseline: what one real parse costs; the transform's time includes
// copying into Wasm and back and building the output string).
// Each file is also checked minified and reformatted without semicolons.
// `node tests/bench/transform_corpus_bench.mjs [every]` (default every file;
// WEBPROF_CORPUS_PLAIN=1 skips the variants).
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import * as prettier from 'prettier';
import { transformForSampling } from '../../dist/transform-esbuild.mjs';
import { checkCorpus, listSources } from '../support/transform-check.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const every = Number(process.argv[2] || 1);
const files = listSources(join(root, 'node_modules'));
// Variants that stress other shapes: esbuild's minifier (`do;while`, comma
// chains, no braces) and prettier without semicolons (every statement ended
// by ASI), the latter on files up to 200 kB to bound its time.
const variants = {
  minified: (code, file) =>
    esbuild
      .transform(code, { minify: true, loader: 'js', format: /\.mjs$/.test(file) ? 'esm' : undefined })
      .then((r) => r.code),
  'semicolon-free': (code) =>
    code.length > 200e3 ? null : prettier.format(code, { parser: 'acorn', semi: false }),
};
const t0 = performance.now();
const s = await checkCorpus(
  transformForSampling,
  files,
  every,
  process.env.WEBPROF_CORPUS_PLAIN ? {} : variants,
);
const wall = (performance.now() - t0) / 1000;
const mb = s.bytes / 1e6;
console.log(`${files.length} source files; with variants:`);
console.log(
  `files tried ${s.tried}, parse ${s.parse}, failures ${s.failures.length}, left unsampled ${s.unscannable.length}`,
);
console.log(
  `checks inserted ${s.sites}; ${mb.toFixed(1)} MB transformed in ${(s.transformMs / 1000).toFixed(1)} s`,
);
console.log(
  `transform ${(mb / (s.transformMs / 1000)).toFixed(1)} MB/s vs acorn parse ${(mb / (s.parseMs / 1000)).toFixed(1)} MB/s ` +
    `(ratio ${(s.parseMs / s.transformMs).toFixed(2)}); whole check ${wall.toFixed(1)} s`,
);
for (const f of s.failures.slice(0, 20)) console.log(`FAIL ${relative(root, f.file)}: ${f.why}`);
for (const f of s.unscannable.slice(0, 20)) console.log(`unsampled ${relative(root, f.file)}: ${f.status}`);
process.exitCode = s.failures.length ? 1 : 0;
