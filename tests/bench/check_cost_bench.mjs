// Where the inserted checks' cost comes from, with no profiler running, in
// Chromium (V8): one library bundle (tests/bench/accuracy/<lib>.mjs, bundled
// by esbuild, put through the sampling transform) in variants that keep,
// drop or replace each kind of check (tests/bench/check-cost/variants.mjs),
// all loaded in one page and timed in interleaved rounds (the order rotates
// each round); printed: the median over rounds of each variant's time over
// the plain bundle's in the same round — the CPU time of the page's thread
// (check-cost/renderer-cpu.mjs: on a shared machine wall time mostly measures
// the other processes) and wall time — and the machine's load average.
//   node tests/bench/check_cost_bench.mjs [rounds = 7] [ms per timing = 300]
//     [--libs=acorn,lodash] [--variants=plain,dense,…] [--js-flags="--flag …"] [--profiled=1]
//     [--extra=name:path/{lib}.mjs,…] [--versus=variant]
// Variants (from the default transform's output; lean* from `exitChecks: false`):
//   dense      as emitted: entry (none in a leaf), loop and exit checks (at
//              each `return`, `return(__wp$t=(0,e),exit,__wp$t)`, and before
//              a body's `}`), guarded by the runtime's global `__wp$on` (0
//              until a session), the slots a module-level `var __wp$f` set
//              from the import first (`__wp$f&&` skips a check before that),
//              the counter compared with the threshold slot `__wp$f[1]`
//   leafless   no entry check in a body with no other check (what the
//              transform emits since 2026-12-02 12:30: with an older dense
//              bundle from WEBPROF_DENSE_BUNDLE)
//   importBinding the check reading the imported binding at every check,
//              as emitted before the module-level `var`; moduleLet: a
//              module-level `let` instead (a TDZ error in an import cycle)
//   guardZero  the same compared with 0, as emitted before the threshold slot
//   unguarded  the same with the check emitted before the guard,
//              `if(--__wp$f[0]<0)__wp$s();` (below: "the check")
//   lean       the check at entries and loops, no exit checks (`exitChecks:
//              false`, before the guard); leanGuarded: the same guarded
//   entry      the check at entries only; loop: in loop bodies only
//   exit       the check at exits only; exitEmpty: no check anywhere, the
//              exits' shape kept (`return(__wp$t=(0,e),0,__wp$t)`)
//   load       a load and compare, no store: `if(__wp$f[0]<0)__wp$s();`
//   exitCall   the exit checks a call of a module-level function that holds
//              the check, `(__wp$on&&__webprof$x())`: less bytecode at each
//              exit
//   noEntry    as emitted without the entry checks; noLoop, noExit: without
//              the loop checks, without the exit checks (their shape kept)
//   pureReturn as emitted, but a `return` whose argument runs no other code
//              (no call, `new`, tagged template, await or yield) takes its
//              exit check before the argument, with no temporary:
//              `return(exit,e)` (variants.mjs pureReturns; prints how many)
//   light      every check the light check, `…&&__wp$f[1]>0)delete __wp$p.s;`
//              (a pending tick only: what ticker mode needs)
//   modal      `…&&(__wp$on<0?__wp$f[1]>0:--__wp$f[0]<__wp$f[1])…`: the
//              light check where the guard is negative, else the check
//   guardImport the guard an imported `let` (./guard.mjs), not a global
//   deadConst  `if(__wp$no&&--__wp$f[0]<0)__wp$s();`, a module-local
//              `const __wp$no=false` first in the file; deadVar: a `var`
//   global     the check on globals (the transform's `runtime: null` form);
//   guardGlobal the guarded check on globals
//   guardCall  `if(__wp$on)__wp$c();` (globals; __wp$c does the decrement)
//   moduleConst as emitted, the runtime's slots and slow path bound by module-level
//              `const`s instead of the import (as when a bundler puts webprof
//              and the code in one module scope)
//   proxyDelete `if(__wp$on&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;` with a
//              global __wp$p (the page's Proxy, whose trap calls __wp$s):
//              the emitted slow path, a bytecode without a feedback slot, so
//              V8 has nothing to deoptimize on the first time it runs
//              (check-cost/slow_path_probe.mjs)
//   callSlow   the slow path a call, `…)__wp$s();`, as emitted before
//   localCounter `if(__wp$on&&--__wp$c<__wp$f[1])(__wp$c=__wp$r());`: the
//              counter a module-local `var`, only the threshold read from the
//              shared slots; the slow path (global __wp$r) returns the next
//              counter (only for measuring: re-armed at 2^29)
// --extra times other bundles of the same library beside them (`{lib}` in
// the path is the library), e.g. one an older transform wrote; --versus
// also prints each variant's CPU time over that variant's, paired by round.
// With --profiled=MS, a second phase starts a session (the global guard
// turns on; the first time, the code that folded it deoptimizes) and times
// each variant under a polyfill Profiler at MS ms (CPU ratio to the plain
// bundle unprofiled, same round).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startStaticServer } from '../../e2e/server.mjs';
import { chromiumLaunchOptions } from '../../js/node/chromium.mjs';
import { bundle, RUNTIME } from './accuracy/bundle.mjs';
import { rendererOf, threadCpuNs } from './check-cost/renderer-cpu.mjs';
import { findChecks, pureReturns, variant } from './check-cost/variants.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : def;
};
const positional = args.filter((a) => !a.startsWith('--'));
const rounds = Number(positional[0] || 7);
const budget = Number(positional[1] || 300);
const libs = opt('libs', 'acorn,lodash').split(',');
const jsFlags = opt('js-flags', '');
const profiledMs = Number(opt('profiled', 0));
const versus = opt('versus', '');
const OLD = 'if(--__wp$f[0]<0)__wp$s();';
const GUARD = 'if(__wp$on&&--__wp$f[0]<0)__wp$s();';
// The transform's binding, before the first statement: the runtime's import,
// then the slots' module-level `var` (a variant's `binding` replaces both).
const BINDING = /import\{__wp\$f as __wp\$m,__wp\$p\}from"[^"]*";var __wp\$f=__wp\$m;/;
const all = (s) => ({ entry: s, loop: s, exit: s });
// The check as emitted before the module-level `var`: the import read at
// every check (`importBinding`).
const IMPORT_CHECK = 'if(__wp$on&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;';
const VARIANTS = {
  dense: { spec: {} },
  guardZero: { spec: all(GUARD) },
  unguarded: { spec: all(OLD) },
  lean: { base: 'lean', spec: { entry: OLD, loop: OLD } },
  leanGuarded: { base: 'lean', spec: {} },
  entry: { base: 'lean', spec: { entry: OLD, loop: '' } },
  loop: { base: 'lean', spec: { entry: '', loop: OLD } },
  exit: { spec: { entry: '', loop: '', exit: OLD } },
  exitEmpty: { spec: { entry: '', loop: '', exit: '' } },
  load: { spec: all('if(__wp$f[0]<0)__wp$s();') },
  guardImport: { spec: {}, binding: 'import { __wp$f, __wp$p, __wp$on } from "./guard.mjs";' },
  deadConst: { spec: all('if(__wp$no&&--__wp$f[0]<0)__wp$s();'), prefix: 'const __wp$no=false;' },
  deadVar: { spec: all('if(__wp$no&&--__wp$f[0]<0)__wp$s();'), prefix: 'var __wp$no=false;' },
  global: { spec: all(OLD), binding: '' },
  guardGlobal: { spec: {}, binding: '' },
  guardCall: { spec: all('if(__wp$on)__wp$c();'), binding: '' },
  moduleConst: {
    spec: {},
    binding: '',
    prefix: 'const __wp$f=globalThis.__wp$F0,__wp$s=globalThis.__wp$S0;',
  },
  proxyDelete: { spec: all('if(__wp$on&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;') },
  callSlow: { spec: all('if(__wp$on&&--__wp$f[0]<__wp$f[1])__wp$s();') },
  localCounter: {
    spec: all('if(__wp$on&&--__wp$c<__wp$f[1])(__wp$c=__wp$r());'),
    prefix: 'var __wp$c=0;',
  },
  leafless: { spec: { leaf: '' } },
  exitCall: {
    spec: { exit: 'if(__wp$on)__webprof$x();' },
    prefix: 'function __webprof$x(){if(__wp$f&&--__wp$f[0]<__wp$f[1])delete __wp$p.s}',
  },
  noEntry: { spec: { entry: '' } },
  noLoop: { spec: { loop: '' } },
  noExit: { spec: { exit: '' } },
  pureReturn: { spec: {}, rewrite: pureReturns },
  light: { spec: all('if(__wp$on&&__wp$f&&__wp$f[1]>0)delete __wp$p.s;') },
  modal: {
    spec: all('if(__wp$on&&__wp$f&&(__wp$on<0?__wp$f[1]>0:--__wp$f[0]<__wp$f[1]))delete __wp$p.s;'),
  },
  importBinding: { spec: all(IMPORT_CHECK), binding: `import { __wp$f, __wp$p } from "${RUNTIME}";` },
  moduleLet: {
    spec: all(IMPORT_CHECK),
    binding: `import { __wp$f as __wp$m, __wp$p } from "${RUNTIME}";let __wp$f=__wp$m;`,
  },
};
const extras = Object.fromEntries(
  opt('extra', '')
    .split(',')
    .filter(Boolean)
    .map((e) => [e.slice(0, e.indexOf(':')), e.slice(e.indexOf(':') + 1)]),
);
const names = [
  'plain',
  ...opt('variants', Object.keys(VARIANTS).join(','))
    .split(',')
    .filter((v) => v !== 'plain'),
  ...Object.keys(extras),
];
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const out = join(root, 'build/bench/check-cost');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'guard.mjs'),
  `export { __wp$f, __wp$p, __wp$s } from '${RUNTIME}';\nexport let __wp$on = false;\nexport function setOn(v) {\n  __wp$on = v;\n}\n`,
);

const server = await startStaticServer({ port: 0 });
const port = server.address().port;
const extraArgs = jsFlags ? [`--js-flags=${jsFlags}`] : [];
const server2 = await chromium.launchServer(chromiumLaunchOptions({ extraArgs }));
const browser = await chromium.connect(server2.wsEndpoint());
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(
  `load average ${load()}; ${rounds} rounds, ~${budget} ms per timing${jsFlags ? `, --js-flags=${jsFlags}` : ''}`,
);
try {
  for (const lib of libs) {
    await bundle(lib);
    const dir = join(root, 'build/bench/accuracy');
    writeFileSync(join(out, `${lib}.plain.mjs`), readFileSync(join(dir, `${lib}.plain.mjs`)));
    const bases = {};
    for (const b of ['dense', 'lean']) {
      const code = readFileSync(join(dir, `${lib}.${b}.mjs`), 'utf8');
      bases[b] = { code, found: findChecks(code) };
    }
    const counts = {};
    for (const c of bases.dense.found.checks) counts[c.kind] = (counts[c.kind] || 0) + 1;
    for (const v of names.slice(1)) {
      if (extras[v]) {
        writeFileSync(join(out, `${lib}.${v}.mjs`), readFileSync(extras[v].replaceAll('{lib}', lib)));
        continue;
      }
      const { spec, binding, prefix = '', base = 'dense', rewrite } = VARIANTS[v];
      let code = variant(bases[base].code, bases[base].found, spec);
      if (rewrite) {
        const r = rewrite(code);
        code = r.code;
        console.log(`  ${lib} ${v}: ${r.pure} returns rewritten, ${r.kept} left as emitted`);
      }
      if (binding !== undefined) code = code.replace(BINDING, binding);
      code = prefix + code;
      writeFileSync(join(out, `${lib}.${v}.mjs`), code);
    }
    const page = await browser.newPage();
    const failed = new Promise((_, reject) => page.on('pageerror', reject));
    await page.goto(
      `http://127.0.0.1:${port}/tests/bench/check-cost/page.html?lib=${lib}&v=${names.join(',')}&runtime=${RUNTIME}`,
    );
    await Promise.race([
      page.waitForFunction(() => window.pageReady === true, null, { timeout: 120_000 }),
      failed,
    ]);
    const { unitMs } = await page.evaluate((o) => window.init(o), { warmMs: 1000 });
    const units = Math.max(1, Math.round(budget / unitMs));
    const renderer = await rendererOf(page, server2.process().pid);
    // One phase: `rounds` rounds over every variant, the order rotating;
    // `profiled` runs each variant but plain under a polyfill Profiler.
    const phase = async (profiled) => {
      const ratios = Object.fromEntries(names.map((v) => [v, []]));
      const cpuRatios = Object.fromEntries(names.map((v) => [v, []]));
      const plainMs = [];
      for (let r = 0; r < rounds; r++) {
        const ms = {};
        const cpu = {};
        for (let k = 0; k < names.length; k++) {
          const v = names[(k + r) % names.length];
          const on = profiled && v !== 'plain';
          if (on) await page.evaluate((i) => window.startProfiler(i), profiled);
          const c0 = threadCpuNs(renderer);
          ms[v] = await page.evaluate((o) => window.timing(o), { v, units });
          cpu[v] = threadCpuNs(renderer) - c0;
          if (on) await page.evaluate(() => window.stopProfiler());
        }
        for (const v of names) {
          ratios[v].push(ms[v] / ms.plain);
          cpuRatios[v].push(cpu[v] / cpu.plain);
        }
        plainMs.push(cpu.plain / 1e6 / units);
      }
      return { ratios, cpuRatios, plainMs };
    };
    const list = (rs) =>
      [...rs]
        .sort((a, b) => a - b)
        .map((x) => x.toFixed(2))
        .join(' ');
    const print = (title, { ratios, cpuRatios, plainMs }) => {
      console.log(
        `  ${title}; plain ${median(plainMs).toFixed(1)} ms CPU a unit; ratio to plain: CPU median (rounds) | wall median`,
      );
      for (const v of names.slice(1))
        console.log(
          `    ${v.padEnd(12)} x${median(cpuRatios[v]).toFixed(3)} (${list(cpuRatios[v])}) | x${median(ratios[v]).toFixed(3)}`,
        );
      if (!versus) return;
      // Paired in each round against another variant: steadier than two
      // medians against plain when rounds swing together.
      for (const v of names.slice(1).filter((n) => n !== versus)) {
        const paired = cpuRatios[v].map((r, i) => r / cpuRatios[versus][i]);
        console.log(
          `    ${v.padEnd(12)} over ${versus}: CPU x${median(paired).toFixed(3)} (${list(paired)})`,
        );
      }
    };
    console.log(
      `\n${lib}: checks ${Object.entries(counts)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}; ${units} units per timing`,
    );
    print('no profiler', await phase(0));
    if (profiledMs) {
      await page.evaluate(() => window.guardsOn());
      print(
        `guards on, each variant but plain under the polyfill at ${profiledMs} ms`,
        await phase(profiledMs),
      );
    }
    await page.close();
  }
} finally {
  await browser.close();
  await server2.close();
  server.close();
}
console.log(`\nload average ${load()}`);
