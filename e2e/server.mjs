// Static server for e2e tests and the demo: serves the repository root on
// 127.0.0.1 with the MIME types module scripts and Wasm need.
//
// Test-only switches, by query parameter, so one server covers every case:
//   ?policy=js-profiling   adds `Document-Policy: js-profiling` (native Profiler) and
//                          `Server-Timing: js-profiling` (how webprof's 'auto' knows)
//   ?cors                  adds `Access-Control-Allow-Origin: *`
//   /redirect?to=URL       302 to URL (a same-origin URL that lands cross-origin)
// A second origin for cross-origin tests listens on port + 1 (same files).
//   ?coi                   adds COOP/COEP so the page is crossOriginIsolated
//   ?type=MIME             serves the file with that Content-Type
//   ?csp=POLICY            adds `Content-Security-Policy: POLICY` (e.g. strict script-src)
// Start: node e2e/server.mjs [--port N]   (default 8787, or WEBPROF_PORT)
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.cpuprofile': 'application/json',
  '.pftrace': 'application/octet-stream',
};

/** Serves files below `base`; `hooks` may answer a request first (return true). */
export function startStaticServer({ port = 0, host = '127.0.0.1', base = root, hooks = [] } = {}) {
  const server = createServer((req, res) => {
    const url = new URL(req.url, `http://${req.headers.host}`);
    for (const hook of hooks) if (hook(req, res, url)) return;
    let path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(base, path);
    if (!file.startsWith(base)) return send(res, 403, 'forbidden');
    let st;
    try {
      st = statSync(file);
      if (st.isDirectory()) {
        file = join(file, 'index.html');
        st = statSync(file);
      }
    } catch {
      return send(res, 404, `not found: ${url.pathname}`);
    }
    const headers = {
      'Content-Type': TYPES[extname(file)] || 'application/octet-stream',
      'Content-Length': st.size,
      'Cache-Control': 'no-store',
    };
    // Server-Timing tells webprof's 'auto' backend, without a console error,
    // that the policy is there (js/polyfill.mjs nativeProfilerAllowed).
    if (url.searchParams.get('policy') === 'js-profiling') {
      headers['Document-Policy'] = 'js-profiling';
      headers['Server-Timing'] = 'js-profiling';
    }
    if (url.searchParams.has('cors')) headers['Access-Control-Allow-Origin'] = '*';
    if (url.searchParams.has('type')) headers['Content-Type'] = url.searchParams.get('type');
    // webprof's service worker lives in dist/ but controls pages elsewhere.
    if (file.endsWith('-sw.js')) headers['Service-Worker-Allowed'] = '/';
    if (url.searchParams.has('csp')) headers['Content-Security-Policy'] = url.searchParams.get('csp');
    if (url.searchParams.has('coi')) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** `/redirect?to=URL` answers 302 to URL. */
export function redirectHook(req, res, url) {
  if (url.pathname !== '/redirect') return false;
  const to = url.searchParams.get('to');
  if (!to) return (send(res, 400, 'missing ?to='), true);
  res.writeHead(302, { Location: to, 'Cache-Control': 'no-store' });
  res.end();
  return true;
}

/**
 * A hook that answers a POST to `path`; `body` resolves with the first text
 * posted there (a page reporting its figures back to a harness).
 */
export function reportHook(path = '/report') {
  let resolve;
  const body = new Promise((r) => (resolve = r));
  const hook = (req, res, url) => {
    if (url.pathname !== path) return false;
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      res.end('ok');
      resolve(text);
    });
    return true;
  };
  return { hook, body };
}

function send(res, code, text) {
  res.writeHead(code, { 'Content-Type': 'text/plain' });
  res.end(text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = Number(i > 0 ? process.argv[i + 1] : process.env.WEBPROF_PORT || 8787);
  const server = await startStaticServer({ port, hooks: [redirectHook] });
  const second = await startStaticServer({ port: server.address().port + 1, hooks: [redirectHook] });
  console.log(
    `webprof test server on http://127.0.0.1:${server.address().port}/ (second origin: port ${second.address().port})`,
  );
}
