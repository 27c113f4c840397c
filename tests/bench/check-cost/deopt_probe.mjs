// What V8 deoptimizes while the checks run (docs/BENCHMARKS.md "Where the
// checks' cost comes from" and "The checks' slow path and V8's feedback"):
// Chromium started with `--js-flags=--trace-deopt` (with --ticker also with
// shared memory allowed: ticker mode), the check-cost page running one
// variant of the library's bundle (default `dense`, as emitted) with no
// session for 3 s, then `sessions` polyfill sessions at 1 ms of ~`ms` of
// units each. Printed per step: the deoptimizations V8 reported, the code
// objects marked because the guard's property cell changed (the first
// session), and the functions deoptimized for "Insufficient type feedback
// for call" (a check whose slow-path call had never run). Expects a run of
// tests/bench/check_cost_bench.mjs with that variant first (it writes the
// bundles); WEBPROF_BENCH_RUNTIME as there.
//   node tests/bench/check-cost/deopt_probe.mjs [lib = acorn] [variant = dense] [sessions = 3] [ms = 1000] [--ticker]
import { startStaticServer } from '../../../e2e/server.mjs';
import { SHARED_MEMORY_ARG } from '../../../js/node/chromium.mjs';
import { RUNTIME } from '../accuracy/bundle.mjs';
import { launchWithDeoptTrace } from './deopt_trace.mjs';

const args = process.argv.slice(2);
const positional = args.filter((a) => !a.startsWith('--'));
const lib = positional[0] || 'acorn';
const v = positional[1] || 'dense';
const sessions = Number(positional[2] || 3);
const ms = Number(positional[3] || 1000);
const ticker = args.includes('--ticker');

const server = await startStaticServer({ port: 0 });
const port = server.address().port;
const { browser, lines, close } = await launchWithDeoptTrace(
  /^\[(bailout|marking dependent code)/,
  ticker ? [SHARED_MEMORY_ARG] : [],
);
const fnOf = (l) => (/<JSFunction (\S*)/.exec(l) || [, '?'])[1];
try {
  const page = await browser.newPage();
  await page.goto(
    `http://127.0.0.1:${port}/tests/bench/check-cost/page.html?lib=${lib}&v=plain,${v}&runtime=${RUNTIME}`,
  );
  await page.waitForFunction(() => window.pageReady === true, null, { timeout: 120_000 });
  const { unitMs } = await page.evaluate((o) => window.init(o), { warmMs: 3000 });
  let total = 0;
  const step = async (what) => {
    await new Promise((r) => setTimeout(r, 300)); // the browser's output arrives
    const cell = lines.filter((l) => /dependent property cell changed/.test(l)).length;
    const calls = lines.filter((l) => /Insufficient type feedback for call/.test(l)).map(fnOf);
    console.log(
      `${what}: ${lines.length} deoptimization lines, ${cell} code objects marked: property cell changed, ` +
        `${calls.length} for call${calls.length ? ` (${calls.join(' ')})` : ''}`,
    );
    lines.length = 0;
    return calls.length;
  };
  await step('warm-up (3 s per bundle)');
  const units = (n) => page.evaluate((o) => window.timing(o), { v, units: n });
  await units(3);
  await step('3 units, no session');
  const n = Math.max(1, Math.round(ms / unitMs));
  for (let k = 1; k <= sessions; k++) {
    await page.evaluate(() => window.startProfiler(1));
    await units(n);
    const samples = await page.evaluate(() => window.stopProfiler());
    total += await step(`session ${k} at 1 ms around ${n} units (${samples} samples)`);
  }
  await units(3);
  await step('3 units after the sessions');
  console.log(
    `${lib} ${v}${ticker ? ', ticker' : ''}: ${total} deoptimizations for call in ${sessions} sessions`,
  );
} finally {
  await close();
  server.close();
}
