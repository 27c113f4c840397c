// Fresh projects for the bundler tests: the packed tarball unpacked into a
// temp project's node_modules (what `npm install webprof-x.tgz` puts there;
// the browser entries have no dependencies), the app of app.mjs, and one
// build per bundler with the repository's own copies of the bundlers. Each
// build follows only the README's install section.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** `npm pack` of the repository, unpacked: the directory of the package. */
export function packTarball(dir) {
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: root,
    encoding: 'utf8',
  });
  const tgz = join(dir, out.trim().split('\n').pop());
  execFileSync('tar', ['-xzf', tgz, '-C', dir]);
  return join(dir, 'package');
}

/** A new project with the app, index.html and `webprof` installed from `pkg`. */
export function newProject(pkg, name) {
  const dir = mkdtempSync(join(tmpdir(), `webprof-${name}-`));
  mkdirSync(join(dir, 'node_modules'));
  cpSync(pkg, join(dir, 'node_modules', 'webprof'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `app-${name}`, private: true, type: 'module' }),
  );
  copyFileSync(join(here, 'app.mjs'), join(dir, 'app.mjs'));
  copyFileSync(join(here, 'index.html'), join(dir, 'index.html'));
  return dir;
}

/** Vite production build: out/ holds index.html and the assets. */
export async function viteBuild(dir) {
  const { build } = await import('vite');
  await build({ root: dir, logLevel: 'silent', configFile: false, build: { outDir: 'out' } });
  return join(dir, 'out');
}

/** A Vite dev server on 127.0.0.1 (close it). */
export async function viteDev(dir) {
  const { createServer } = await import('vite');
  const server = await createServer({
    root: dir,
    logLevel: 'silent',
    configFile: false,
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  return server;
}

/** webpack 5 production build into out/ (index.html loads main.js). */
export async function webpackBuild(dir) {
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((resolve, reject) =>
    webpack(
      {
        mode: 'production',
        context: dir,
        entry: './app.mjs',
        output: { path: join(dir, 'out') },
        optimization: { minimize: false }, // terser takes ~25 s here; not what is tested
      },
      (err, s) => (err ? reject(err) : resolve(s)),
    ),
  );
  if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
  writeFileSync(
    join(dir, 'out', 'index.html'),
    '<!doctype html><meta charset="utf-8"><script src="main.js"></script>',
  );
  return join(dir, 'out');
}

/** esbuild: the bundle, plus the README's copy step for the .wasm. */
export async function esbuildBuild(dir) {
  const esbuild = await import('esbuild');
  const out = join(dir, 'out');
  await esbuild.build({
    absWorkingDir: dir,
    entryPoints: ['app.mjs'],
    bundle: true,
    format: 'esm',
    outdir: out,
    logLevel: 'silent',
  });
  copyFileSync(join(dir, 'node_modules/webprof/dist/webprof-core.wasm'), join(out, 'webprof-core.wasm'));
  writeFileSync(
    join(out, 'index.html'),
    '<!doctype html><meta charset="utf-8"><script type="module" src="app.js"></script>',
  );
  return out;
}
