// The field-collection example server (examples/field-server/) installed
// the way its README says — its folder with `webprof` in node_modules (here
// a link to this repository, whose package.json exports dist/) — in a
// temporary directory: for tests/js/field-server.test.mjs and the browser
// tests of field collection.
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildMinifiedApp } from './minified-workload.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** {dir, data, maps, module}: the installed example and its server.mjs exports. */
export async function installFieldServer() {
  const dir = mkdtempSync(join(tmpdir(), 'webprof-field-server-'));
  // Removed when the test process ends (node:test, a Playwright worker), so
  // no caller can leave its copy, data and maps behind.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const app = join(dir, 'field-server');
  cpSync(join(root, 'examples', 'field-server'), app, { recursive: true });
  mkdirSync(join(app, 'node_modules'));
  symlinkSync(root, join(app, 'node_modules', 'webprof'));
  const module = await import(pathToFileURL(join(app, 'server.mjs')).href);
  return { dir, app, data: join(dir, 'data'), maps: join(dir, 'maps'), module };
}

/** Starts `server` on 127.0.0.1 at a free port; resolves its base URL. */
export function listen(server) {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
  );
}

/**
 * The first profile the server stored for `release` under its `data` folder,
 * parsed; polled for 10 s, as a beacon arrives after the page let go of it
 * (and a file seen while the server still writes it is read again).
 */
export async function storedProfile(data, release) {
  const dir = join(data, release);
  for (let i = 0; i < 100; i++) {
    let files = [];
    try {
      files = readdirSync(dir);
    } catch {
      /* not yet */
    }
    if (files.length) {
      try {
        return JSON.parse(readFileSync(join(dir, files[0]), 'utf8'));
      } catch (e) {
        if (!(e instanceof SyntaxError) || i === 99) throw e;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no profile stored for ${release}`);
}

/**
 * The minified workload app (minified-workload.mjs) built into the installed
 * example's folder, as a deployed site serves it: `serve` is a static-server
 * hook answering /field/app.js with the bundle (its sourceMappingURL comment
 * removed, as a site that keeps its maps private does); `deploy(release)`
 * puts the map where the server looks for that release and returns it.
 */
export async function fieldApp(fs) {
  const dir = join(fs.dir, 'build');
  await buildMinifiedApp(dir);
  const bundle = readFileSync(join(dir, 'app.js'), 'utf8').replace(/\/\/# sourceMappingURL=.*\n?$/, '');
  return {
    serve(req, res, url) {
      if (url.pathname !== '/field/app.js') return false;
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      res.end(bundle);
      return true;
    },
    deploy(release) {
      mkdirSync(join(fs.maps, release, 'field'), { recursive: true });
      copyFileSync(join(dir, 'app.js.map'), join(fs.maps, release, 'field', 'app.js.map'));
      return release;
    },
  };
}
