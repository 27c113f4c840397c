// `npm test`'s types step: `tsc --strict` (no skipLibCheck, so the published
// .d.ts files and the bundlers' and Playwright's own are checked too) over the
// usage files here and every JavaScript snippet of README.md that imports
// webprof, under each module resolution a project may use: bundler, node16 and
// nodenext. `webprof` resolves to this package's dist/ through its `exports`
// (a self-reference), as it would from node_modules.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = join(root, 'build', 'types');

/** The ```js blocks of `markdown` that import a webprof entry, in order. */
export function readmeSnippets(markdown) {
  const blocks = [...markdown.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  return blocks.filter((b) => /from 'webprof(\/[\w/-]+)?'/.test(b));
}

const MODES = {
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  node16: { module: 'node16', moduleResolution: 'node16' },
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
};

function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const snippets = readmeSnippets(readFileSync(join(root, 'README.md'), 'utf8'));
  if (snippets.length < 5) throw new Error(`README.md: only ${snippets.length} webprof snippets found`);
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(here, f));
  snippets.forEach((code, i) => {
    const file = join(out, `readme-${i + 1}.ts`);
    // Each snippet is a module of its own (top-level await, its own imports).
    writeFileSync(file, `// README.md snippet ${i + 1}\n${code}export {};\n`);
    files.push(file);
  });
  let failed = 0;
  for (const [mode, resolution] of Object.entries(MODES)) {
    const config = join(out, `tsconfig.${mode}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions: {
          ...resolution,
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          target: 'es2022',
          types: ['node'],
          lib: ['es2022', 'dom', 'esnext.disposable'],
        },
        files,
      }),
    );
    console.log(`[types] tsc --strict, moduleResolution ${mode}: ${files.length} files`);
    const r = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', config], {
      cwd: root,
      stdio: 'inherit',
    });
    if (r.status !== 0) failed++;
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
