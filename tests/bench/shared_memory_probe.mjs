// How a page Node controls can reach the polyfill's ticker (shared memory
// with a Worker), measured in this machine's Chromium: which launch switches
// expose a postable SharedArrayBuffer without cross-origin isolation (and
// the clock's step then), and what serving a page cross-origin isolated
// (COOP same-origin + COEP credentialless | require-corp) breaks: cross-origin
// images and scripts without CORP, iframes with and without their own
// headers, a popup's `window.opener`. Two origins: 127.0.0.1 and localhost.
// Printed only (docs/BENCHMARKS.md "Reaching the ticker"; the choice is in
// docs/ARCHITECTURE.md). Nothing is asserted.
//   node tests/bench/shared_memory_probe.mjs
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';

const HEADERS = {
  coop: 'cross-origin-opener-policy',
  coep: 'cross-origin-embedder-policy',
  corp: 'cross-origin-resource-policy',
};
const BODIES = {
  '/img.svg': ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>'],
  '/s.js': ['text/javascript', 'window.sLoaded = 1;'],
  '/child.html': ['text/html', '<script>parent.postMessage("child-ok", "*")</script>'],
  '/popup.html': ['text/html', '<script>try { opener.postMessage("popup-ok", "*") } catch {}</script>'],
};
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const headers = {};
  for (const [q, h] of Object.entries(HEADERS))
    if (url.searchParams.get(q)) headers[h] = url.searchParams.get(q);
  const [type, body] = BODIES[url.pathname] || ['text/html', '<p>top</p>'];
  res.writeHead(200, { 'content-type': type, ...headers });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const same = `http://127.0.0.1:${server.address().port}`;
const cross = `http://localhost:${server.address().port}`;

// In the page: is a SharedArrayBuffer there, and can a Worker write into it?
async function sharedMemory() {
  const r = { SharedArrayBuffer: typeof SharedArrayBuffer, crossOriginIsolated };
  try {
    const f = new Int32Array(new SharedArrayBuffer(16));
    const url = URL.createObjectURL(new Blob(['onmessage = (e) => Atomics.store(e.data, 0, 42)']));
    new Worker(url).postMessage(f);
    const t0 = performance.now();
    while (Atomics.load(f, 0) !== 42 && performance.now() - t0 < 2000)
      await new Promise((r) => setTimeout(r, 10));
    r.workerWrote = Atomics.load(f, 0) === 42;
  } catch (e) {
    r.error = `${e.name}: ${e.message}`;
  }
  const steps = new Set();
  let prev = performance.now();
  for (const end = prev + 20; prev < end;) {
    const t = performance.now();
    if (t !== prev) steps.add(Math.round((t - prev) * 1e3) / 1e3);
    prev = t;
  }
  r.clockStepsMs = [...steps].sort((a, b) => a - b).slice(0, 3);
  return r;
}

// In an isolated page: what still loads, and whether a popup keeps its opener.
async function isolation([same, cross, coep]) {
  const load = (tag, src) =>
    new Promise((resolve) => {
      const e = document.createElement(tag);
      e.onload = () => resolve('loads');
      e.onerror = () => resolve('blocked');
      e.src = src;
      document.body.append(e);
    });
  const message = (expected, start) =>
    new Promise((resolve) => {
      const on = (e) => e.data === expected && (removeEventListener('message', on), resolve('loads'));
      addEventListener('message', on);
      start();
      setTimeout(() => resolve('blocked'), 3000);
    });
  const frame = (src) =>
    message('child-ok', () => document.body.append(Object.assign(document.createElement('iframe'), { src })));
  const popup = async (src) =>
    (await message('popup-ok', () => window.open(src))) === 'loads' ? 'opener kept' : 'no opener';
  return {
    crossOriginIsolated,
    'cross-origin image, no CORP': await load('img', `${cross}/img.svg`),
    'cross-origin script, no CORP': await load('script', `${cross}/s.js`),
    'same-origin iframe, no headers': await frame(`${same}/child.html`),
    'same-origin iframe with the COEP': await frame(`${same}/child.html?coep=${coep}`),
    'cross-origin iframe, no headers': await frame(`${cross}/child.html`),
    'cross-origin iframe with COEP': await frame(`${cross}/child.html?coep=${coep}`),
    'cross-origin iframe with COEP + CORP': await frame(`${cross}/child.html?coep=${coep}&corp=cross-origin`),
    'same-origin isolated popup': await popup(`${same}/popup.html?coop=same-origin&coep=${coep}`),
    'cross-origin popup': await popup(`${cross}/popup.html`),
  };
}

try {
  for (const extra of [
    [],
    ['--enable-blink-features=SharedArrayBufferUnrestrictedAccessAllowed'],
    ['--enable-features=SharedArrayBuffer'],
  ]) {
    const browser = await chromium.launch(chromiumLaunchOptions({ extraArgs: extra }));
    const page = await browser.newPage();
    await page.goto(`${same}/`);
    console.log(
      `switches ${extra.join(' ') || '(none)'}, page not isolated: ${JSON.stringify(await page.evaluate(sharedMemory))}`,
    );
    await browser.close();
  }
  const browser = await chromium.launch(chromiumLaunchOptions());
  for (const coep of ['credentialless', 'require-corp']) {
    const page = await browser.newPage();
    await page.goto(`${same}/?coop=same-origin&coep=${coep}`);
    console.log(`\nCOOP same-origin + COEP ${coep}:`);
    for (const [what, r] of Object.entries(await page.evaluate(isolation, [same, cross, coep])))
      console.log(`  ${what}: ${r}`);
    await page.close();
  }
  await browser.close();
} finally {
  server.close();
}
