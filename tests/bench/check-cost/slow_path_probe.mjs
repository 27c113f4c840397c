// Which slow path of a check V8 deoptimizes on when it runs for the first
// time in optimized code (docs/BENCHMARKS.md "The checks' slow path and V8's
// feedback"): Chromium with `--js-flags=--trace-deopt`, one fresh browser per
// form; a function with two guarded sites, the first taken a few times, the
// second never until the function has run 300 000 times (Maglev, then
// TurboFan), then taken. Printed per form: V8's deoptimizations of that
// function, and the position a stack captured in the slow path reports.
// Forms: a call to a global function, to a script `const`, to a `let`, a
// method call, and `delete` on a Proxy whose deleteProperty trap runs (no
// feedback slot: DeletePropertyStrict has none).
//   node tests/bench/check-cost/slow_path_probe.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../../js/node/chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FORMS = {
  global: 'G()',
  const: 'C()',
  let: 'L()',
  method: 'O.m()',
  proxyDelete: 'delete P.s',
};
const source = (slow) => `
globalThis.G = function G() { hits++; stack = new Error().stack; };
const C = globalThis.G;
let L = globalThis.G; L = (0, L);
const O = { m: globalThis.G };
const P = new Proxy({}, { deleteProperty() { globalThis.G(); return true; } });
let hits = 0;
let stack = '';
function site(x, k) {
  if (k === 1) ${slow};
  let y = 0;
  for (let i = 0; i < 10; i++) y += i * x;
  if (k === 2) ${slow};
  return y;
}
window.go = () => {
  let a = 0;
  for (let j = 0; j < 50; j++) a += site(j, 0);
  for (let j = 0; j < 5; j++) a += site(j, 1);
  for (let j = 0; j < 300000; j++) a += site(j, 0);
  for (let j = 0; j < 5; j++) a += site(j, 2);
  return { a, hits, at: stack.split('\\n').find((l) => /at site/.test(l)) };
};`;
// V8's traces go to the renderer's stdout: line-buffered, or they arrive late.
const options = chromiumLaunchOptions({ extraArgs: ['--js-flags=--trace-deopt'] });
const wrapper = join(root, 'build/bench/chromium-line-buffered.sh');
writeFileSync(wrapper, `#!/bin/sh\nexec stdbuf -oL -eL ${options.executablePath} "$@"\n`, { mode: 0o755 });
for (const [name, slow] of Object.entries(FORMS)) {
  const bs = await chromium.launchServer({ ...options, executablePath: wrapper });
  const lines = [];
  for (const s of [bs.process().stdout, bs.process().stderr])
    s.on('data', (d) =>
      lines.push(
        ...String(d)
          .split('\n')
          .filter((l) => /^\[bailout.*JSFunction site /.test(l)),
      ),
    );
  const browser = await chromium.connect(bs.wsEndpoint());
  const page = await browser.newPage();
  await page.addScriptTag({ content: source(slow) });
  const r = await page.evaluate(() => window.go());
  await new Promise((resolve) => setTimeout(resolve, 500));
  await browser.close();
  await bs.close();
  const deopts = lines.map((l) => l.replace(/.*reason: ([^)]*)\).*<Code (\w+)>.*/, '$1 ($2)'));
  console.log(
    `${name.padEnd(12)} ${slow.padEnd(11)} deoptimized: ${deopts.join(', ') || 'never'}; slow path ran ${r.hits}×, reported at ${r.at.trim()}`,
  );
}
