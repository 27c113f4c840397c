// The polyfill's slowdown as a page's users see it: Debian's Chromium run
// headless with no DevTools connection (Playwright's connection makes V8
// record a second 200-frame stack at every capture, which inflates the cost
// of a sample). The bench page (e2e/pages/fidelity/bench.html?report=...)
// measures by itself and posts its figures here. Ratios are same-run:
// interleaved minima, and medians of adjacent unprofiled/profiled pairs.
//   node tests/bench/overhead_headless_bench.mjs [pairs = 60] [fib(30) per run = 10]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../js/node/chromium.mjs';
import { reportHook, startStaticServer } from '../../e2e/server.mjs';
import { buildTransformed } from '../../e2e/fidelity-helpers.mjs';

await buildTransformed('split.mjs');
await buildTransformed('calls.mjs');
// The page posts its figures back to the same server.
const report = reportHook();
const files = await startStaticServer({ port: 0, hooks: [report.hook] });
let timedOut;
const result = Promise.race([
  report.body.then((text) => JSON.parse(text)),
  new Promise((r) => (timedOut = setTimeout(() => r(null), 1_800_000))),
]);
const url =
  `http://127.0.0.1:${files.address().port}/e2e/pages/fidelity/bench.html` +
  `?policy=js-profiling&report=/report` +
  `&pairs=${Number(process.argv[2] || 60)}&repeat=${Number(process.argv[3] || 10)}`;
const profileDir = mkdtempSync(join(tmpdir(), 'webprof-bench-'));
const browser = spawn(
  CHROMIUM_PATH,
  [...CHROMIUM_ARGS, '--headless=new', `--user-data-dir=${profileDir}`, url],
  { stdio: 'ignore' },
);
const r = await result;
clearTimeout(timedOut);
browser.kill();
await new Promise((r) => (browser.exitCode !== null ? r() : browser.once('exit', r)));
files.close();
rmSync(profileDir, { recursive: true, force: true });
if (!r) {
  console.error('overhead bench: no result from the page within 30 minutes');
  process.exit(1);
}
const x = (v) => `${v.toFixed(3)}x`;
const pair = (p) =>
  `${x(p.median)} (quartiles ${x(p.q1)}–${x(p.q3)}, ${p.samplesPerRun.toFixed(0)} samples/run)`;
console.log(`Chromium headless, no DevTools; ${r.minOf.calls} calls per run`);
console.log(
  `minima of 11 interleaved runs: polyfill@1ms ${x(r.minOf.polyfill1)}  polyfill@10ms ${x(r.minOf.polyfill10)}  ` +
    `native@10ms ${x(r.minOf.native10)}  check ${r.minOf.checkNs.toFixed(2)} ns/site`,
);
const pairs = `median of ${r.poly1.pairs} pairs`;
console.log(`${pairs}: polyfill@1ms  ${pair(r.poly1)}`);
console.log(`${pairs}: polyfill@10ms ${pair(r.poly10)}`);
console.log(`${pairs}: native@10ms   ${pair(r.native10)}`);
