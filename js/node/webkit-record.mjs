// `webprof record URL --browser webkit`: the same recording as in Chromium,
// in WebKit (JavaScriptCore) driven over W3C WebDriver (js/node/webkit.mjs).
// WebDriver has no init scripts and no request interception, so the browser
// goes through a local HTTP proxy that does what Playwright's route does
// (js/node/rewrite.mjs): documents get webprof's agent as their first script
// (`<script src=/__webprof__/agent.js>`, answered by the proxy on every
// origin, inserted without a line break so lines stay) and, dense, their
// inline scripts transformed; scripts are transformed; a dedicated worker's
// script (Fetch Metadata `Sec-Fetch-Dest: worker`) loads the agent first.
// HTTPS passes through untouched (CONNECT tunnel): only http:// pages are
// rewritten, and a page with no agent is reported as such.
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { agentScript, agentSource, HIDDEN, stopInPage } from './agent.mjs';
import {
  newRewriteState,
  rewrittenDocument,
  rewrittenScript,
  scriptMayChange,
  documentHeaders,
  WORKER_AGENT_PATH,
} from './rewrite.mjs';
import { launchWebKit } from './webkit.mjs';

const AGENT_PATH = '/__webprof__/agent.js';
const ERRORS = '__webprof_errors__';
// The page's uncaught errors, kept where Node reads them at the end (WebDriver has no error events).
const WATCH_ERRORS = `Object.defineProperty(globalThis, '${ERRORS}', { value: [], configurable: true });
addEventListener('error', (e) => globalThis.${ERRORS}.push({ name: (e.error && e.error.name) || 'Error', message: String(e.message) }));`;
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/** Inserts the agent's tag after the doctype (same line), or at the very start. */
function withAgentTag(html) {
  const m = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = m ? m[0].length : 0;
  return `${html.slice(0, at)}<script src="${AGENT_PATH}"></script>${html.slice(at)}`;
}

/** The rewriting proxy; resolves to the listening server. */
export async function startRewritingProxy(state, autoStart) {
  const agent = await agentSource();
  const pageAgent = `${WATCH_ERRORS}\n${agentScript(agent, { autoStart })}`;
  const workerAgent = agentScript(agent, { autoStart });
  const server = createServer((req, res) => {
    proxied(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`webprof proxy: ${e.message}`);
    });
  });
  async function proxied(req, res) {
    const url = new URL(req.url);
    if (url.pathname === AGENT_PATH || url.pathname === WORKER_AGENT_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
      return res.end(url.pathname === AGENT_PATH ? pageAgent : workerAgent);
    }
    const kept = req.method === 'GET' && state.rewritten.get(url.href);
    if (kept) return send(res, 200, kept.headers, kept.body);
    const upstream = await forward(req, url);
    const headers = { ...upstream.headers };
    const type = headers['content-type'] || '';
    const dest = req.headers['sec-fetch-dest'];
    const ok = upstream.status === 200;
    if (ok && /html/i.test(type) && (dest === 'document' || dest === 'iframe' || dest === undefined)) {
      const html = upstream.body.toString('utf8');
      const r = state.dense
        ? await rewrittenDocument(state, url.href, headers, html)
        : { headers, body: html };
      return send(res, 200, documentHeaders(state, r.headers), withAgentTag(r.body));
    }
    if (ok && state.dense && /javascript|ecmascript/i.test(type) && scriptMayChange(state, url.href)) {
      // A module worker is fetched in cors mode, a classic one in same-origin mode.
      const worker =
        dest === 'worker' ? (req.headers['sec-fetch-mode'] === 'cors' ? 'module' : 'classic') : null;
      const r = await rewrittenScript(state, url.href, headers, upstream.body.toString('utf8'), worker);
      if (r) return send(res, 200, r.headers, r.body);
    }
    send(res, upstream.status, headers, upstream.body);
  }
  // HTTPS: a blind tunnel (nothing to rewrite without breaking TLS).
  server.on('connect', (req, socket, head) => {
    const [host, port] = req.url.split(':');
    const out = connect(Number(port) || 443, host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      out.write(head);
      out.pipe(socket);
      socket.pipe(out);
    });
    const end = () => (out.destroy(), socket.destroy());
    out.on('error', end);
    socket.on('error', end);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return server;
}

// The request as the browser sent it, to its origin; the body read whole, uncompressed.
function forward(req, url) {
  return new Promise((resolve, reject) => {
    const headers = {};
    for (const [k, v] of Object.entries(req.headers))
      if (!HOP.has(k) && k !== 'accept-encoding' && k !== 'proxy-authorization') headers[k] = v;
    const out = httpRequest(
      {
        hostname: url.hostname,
        port: url.port || 80,
        path: url.pathname + url.search,
        method: req.method,
        headers,
      },
      (up) => {
        const chunks = [];
        up.on('data', (c) => chunks.push(c));
        up.on('end', () => {
          const h = {};
          for (const [k, v] of Object.entries(up.headers))
            if (!HOP.has(k) && k !== 'content-length') h[k] = v;
          resolve({ status: up.statusCode, headers: h, body: Buffer.concat(chunks) });
        });
        up.on('error', reject);
      },
    );
    out.on('error', reject);
    req.pipe(out);
  });
}

function send(res, status, headers, body) {
  const h = { ...headers };
  delete h['content-length'];
  delete h['content-encoding'];
  res.writeHead(status, h);
  res.end(body);
}

/**
 * Records `o.url` in WebKit (the CLI's options, see js/node/cli.mjs) and
 * returns the page's data as stopInPage gives it, with what the rewriting
 * left alone and the page's errors; the caller exports and writes it.
 */
export async function recordInWebKit(o, log, elapsed) {
  const state = newRewriteState({ dense: o.dense, native: false });
  const autoStart = { sampleInterval: o.sampleInterval, maxBufferSize: 10_000_000, backend: 'polyfill' };
  const proxy = await startRewritingProxy(state, autoStart);
  let wk;
  try {
    log(`[${elapsed()}] starting WebKit (WebKitWebDriver under xvfb-run)`);
    wk = await launchWebKit({ proxy: `127.0.0.1:${proxy.address().port}` });
    log(`[${elapsed()}] loading ${o.url}`);
    await wk.url(o.url);
    const has = await wk.execute((h) => !!globalThis[h], HIDDEN);
    if (!has)
      throw new Error(
        `webprof's agent did not load into ${o.url} (only http:// pages can be rewritten in WebKit)`,
      );
    await wk.execute((h) => globalThis[h].ready.then(() => true), HIDDEN);
    if (o.script) {
      log(`[${elapsed()}] running ${o.script}`);
      await o.actions({ webkit: wk });
    }
    const deadline = Date.now() + o.seconds * 1000;
    let found = false;
    while (Date.now() < deadline) {
      if (o.untilSelector && (await wk.execute((s) => !!document.querySelector(s), o.untilSelector))) {
        found = true;
        break;
      }
      const samples = await wk.execute((h) => {
        const s = globalThis[h] && globalThis[h].__session;
        return s && s.profiler ? s.profiler.sampleCount : null;
      }, HIDDEN);
      log(`[${elapsed()}] profiling${samples == null ? '' : `, ${samples} samples so far`}`);
      await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, deadline - Date.now()))));
    }
    if (o.untilSelector && !found)
      log(`[${elapsed()}] ${o.untilSelector} did not appear within ${o.seconds}s; stopping`);
    const data = await wk.execute(`(h) => (${stopInPage})(globalThis[h])`, HIDDEN);
    const pageErrors = await wk.execute((e) => globalThis[e] || [], ERRORS);
    return { data, unsampled: [...state.unsampled], pageErrors };
  } finally {
    if (wk) await wk.close();
    proxy.close();
    proxy.closeAllConnections?.();
  }
}
