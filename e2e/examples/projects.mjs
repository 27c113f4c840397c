// The examples/ projects as a user builds them: the package from `npm pack`
// unpacked into a copy's node_modules (what `npm install` of the tarball puts
// there; the browser entries have no dependencies), the example's bundler
// devDependencies linked from this repository's node_modules (no network),
// then the example's own `npm run build`.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const EXAMPLES = ['vite', 'webpack', 'esbuild', 'rollup'];

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

/** A copy of examples/<name> with `webprof` installed from `pkg` and its bundler linked. */
export function newProject(pkg, name) {
  const dir = mkdtempSync(join(tmpdir(), `webprof-example-${name}-`));
  cpSync(join(root, 'examples', name), dir, { recursive: true });
  mkdirSync(join(dir, 'node_modules', '@rollup'), { recursive: true });
  cpSync(pkg, join(dir, 'node_modules', 'webprof'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  for (const dep of Object.keys(manifest.devDependencies || {}))
    symlinkSync(join(root, 'node_modules', dep), join(dir, 'node_modules', dep));
  return dir;
}

/** The example's `npm run build`, with the linked bundlers' commands on the PATH. */
export function build(dir) {
  execFileSync('npm', ['run', '--silent', 'build'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` },
  });
  // Vite builds index.html into dist/; the others leave it beside dist/.
  return dir.includes('-vite-') ? join(dir, 'dist') : dir;
}

/** A Vite dev server on 127.0.0.1 over the project (close it). */
export async function viteDev(dir) {
  const { createServer } = await import('vite');
  const server = await createServer({
    root: dir,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  return server;
}
