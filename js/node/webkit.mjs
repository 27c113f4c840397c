// How webprof drives WebKit (JavaScriptCore, Safari's engine) on Linux: Debian's
// WebKitWebDriver (package webkit2gtk-driver) starts the WebKitGTK MiniBrowser,
// spoken to in plain W3C WebDriver over HTTP. The browser needs a display, so
// the driver runs under `xvfb-run -a` (packages xvfb, xauth). The CLI
// (`webprof record --browser webkit`) and the WebKit e2e step use this file.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export const WEBKIT_DRIVER =
  (typeof process === 'object' && process.env.WEBPROF_WEBKIT_DRIVER) || 'WebKitWebDriver';

/** Why WebKit cannot run here (a sentence), or null when the driver and xvfb-run exist. */
export function webkitMissing() {
  for (const [cmd, pkg] of [
    [WEBKIT_DRIVER, 'webkit2gtk-driver'],
    ['xvfb-run', 'xvfb xauth'],
  ]) {
    const found = spawnSync('sh', ['-c', `command -v "$0"`, cmd], { encoding: 'utf8' });
    if (found.status !== 0)
      return `${cmd} not found: install it with \`apt-get install -y ${pkg}\` (or run .ci/setup.sh)`;
  }
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts WebKitWebDriver under `xvfb-run -a` and opens one browser session
 * (through the HTTP proxy `proxy`, 'host:port', when given).
 * Returns { url(u), execute(fn, ...args), close() }: `execute` runs `fn` (a
 * function, or its source) in the page as an async script and resolves with
 * what it returns (JSON-serialisable); a page-side throw rejects with its message.
 */
export async function launchWebKit({ timeoutMs = 60_000, proxy = null } = {}) {
  const missing = webkitMissing();
  if (missing) throw new Error(`WebKit: ${missing}`);
  const port = await freePort();
  // Its own process group: close() ends xvfb-run, Xvfb, the driver and the browser together.
  const child = spawn('xvfb-run', ['-a', WEBKIT_DRIVER, `--port=${port}`], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  const base = `http://127.0.0.1:${port}`;
  const killAll = () => {
    if (exited) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
  };

  async function call(method, path, body) {
    const res = await fetch(base + path, {
      method,
      headers: body ? { 'Content-Type': 'application/json; charset=utf-8' } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const json = await res.json();
    if (!res.ok) {
      const v = json.value || {};
      throw new Error(`WebKit ${method} ${path}: ${v.error || res.status}: ${v.message || ''}`);
    }
    return json.value;
  }

  let sessionId;
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (exited) throw new Error(`WebKitWebDriver exited: ${stderr.trim()}`);
      try {
        await call('GET', '/status');
        break;
      } catch (e) {
        if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer: ${e.message} ${stderr}`);
        await sleep(100);
      }
    }
    // proxy: 'host:port' of an HTTP proxy for every http(s) request of the browser.
    const alwaysMatch = proxy ? { proxy: { proxyType: 'manual', httpProxy: proxy, sslProxy: proxy } } : {};
    ({ sessionId } = await call('POST', '/session', { capabilities: { alwaysMatch } }));
  } catch (e) {
    killAll();
    throw e;
  }
  const session = `/session/${sessionId}`;
  return {
    /** Navigates and waits for the page's load event. */
    url: (u) => call('POST', `${session}/url`, { url: u }),
    /** Reloads the page and waits for its load event. */
    refresh: () => call('POST', `${session}/refresh`, {}),
    async execute(fn, ...args) {
      // The driver's last argument is the callback; errors come back as { error }.
      const script =
        `const done = arguments[arguments.length - 1];` +
        `Promise.resolve().then(() => (${fn}).apply(null, Array.prototype.slice.call(arguments, 0, -1)))` +
        `.then((value) => done({ value }), (e) => done({ error: e && e.name ? e.name + ': ' + e.message + '\\n' + e.stack : String(e) }));`;
      const r = await call('POST', `${session}/execute/async`, { script, args });
      if (r && r.error !== undefined) throw new Error(`in WebKit: ${r.error}`);
      return r ? r.value : undefined;
    },
    /** Polls `fn` in the page until it returns a truthy value. */
    async waitFor(fn, { timeout = 20_000, arg } = {}) {
      const end = Date.now() + timeout;
      for (;;) {
        const v = await this.execute(fn, arg).catch(() => undefined);
        if (v) return v;
        if (Date.now() > end) throw new Error(`WebKit: timed out waiting for ${fn}`);
        await sleep(50);
      }
    },
    async close() {
      try {
        await call('DELETE', session);
      } catch {}
      killAll();
    },
  };
}
