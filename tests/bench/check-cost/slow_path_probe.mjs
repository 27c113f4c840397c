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
import { launchWithDeoptTrace } from './deopt_trace.mjs';

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
for (const [name, slow] of Object.entries(FORMS)) {
  const { browser, lines, close } = await launchWithDeoptTrace(/^\[bailout.*JSFunction site /);
  const page = await browser.newPage();
  await page.addScriptTag({ content: source(slow) });
  const r = await page.evaluate(() => window.go());
  await new Promise((resolve) => setTimeout(resolve, 500));
  await close();
  const deopts = lines.map((l) => l.replace(/.*reason: ([^)]*)\).*<Code (\w+)>.*/, '$1 ($2)'));
  console.log(
    `${name.padEnd(12)} ${slow.padEnd(11)} deoptimized: ${deopts.join(', ') || 'never'}; slow path ran ${r.hits}×, reported at ${r.at.trim()}`,
  );
}
