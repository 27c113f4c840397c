// What the checks' guard does to V8's optimized code (docs/BENCHMARKS.md,
// "Where the checks' cost comes from"): Chromium started with
// `--js-flags=--trace-deopt`, the check-cost page running the guarded acorn
// bundle; printed per step, the deoptimizations V8 reported and how many of
// them were code marked because the guard's property cell changed. Expects
// a run of tests/bench/check_cost_bench.mjs first (it writes the bundles).
//   node tests/bench/check-cost/deopt_probe.mjs [lib = acorn]
import { chromium } from 'playwright-core';
import { startStaticServer } from '../../../e2e/server.mjs';
import { chromiumLaunchOptions } from '../../../js/node/chromium.mjs';

const lib = process.argv[2] || 'acorn';
const server = await startStaticServer({ port: 0 });
const port = server.address().port;
const bs = await chromium.launchServer(chromiumLaunchOptions({ extraArgs: ['--js-flags=--trace-deopt'] }));
let lines = [];
for (const s of [bs.process().stdout, bs.process().stderr])
  s.on('data', (d) =>
    lines.push(
      ...String(d)
        .split('\n')
        .filter((l) => /^\[(bailout|marking dependent code)/.test(l)),
    ),
  );
try {
  const browser = await chromium.connect(bs.wsEndpoint());
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/tests/bench/check-cost/page.html?lib=${lib}&v=plain,dense`);
  await page.waitForFunction(() => window.pageReady === true, null, { timeout: 120_000 });
  await page.evaluate((o) => window.init(o), { warmMs: 3000 });
  const step = async (what) => {
    await new Promise((r) => setTimeout(r, 300)); // the browser's output arrives
    const cell = lines.filter((l) => /dependent property cell changed/.test(l)).length;
    console.log(
      `${what}: ${lines.length} deoptimization lines, ${cell} code objects marked: property cell changed`,
    );
    lines = [];
  };
  await step('warm-up (3 s per bundle)');
  const units = () => page.evaluate(() => window.timing({ v: 'dense', units: 3 }));
  await units();
  await step('3 units, no session');
  for (let k = 1; k <= 3; k++) {
    await page.evaluate(() => window.startProfiler(1));
    await units();
    await page.evaluate(() => window.stopProfiler());
    await step(`session ${k} at 1 ms around 3 units`);
  }
  await units();
  await step('3 units after the sessions');
  await browser.close();
} finally {
  await bs.close();
  server.close();
}
