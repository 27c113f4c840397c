// Build-time transform for dense sampling: inserts a probe-site check at
// every function entry and loop body, so long synchronous code is sampled
// (js/profiler/dense.mjs is the runtime; docs/ARCHITECTURE.md the model).
//
// Where: the core finds the sites (FindProbeSites in src/source/probe_sites.h,
// the same tokenizer that resolves frames), so strings, templates, regexes,
// comments, object literals and class bodies never receive a check. What:
// `if(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;` right after a
// body's `{` (after a directive prologue; none in a body that would have no
// other check, whose entry check changes no sample's stack: probe_sites.h),
// an exit check where the body leaves (the light check, which takes a
// pending tick only, where the body calls nothing; `return e` →
// `return(__wp$t=(0,e),exit,__wp$t)`, the check as an expression after `e`;
// a check before the body's `}`: a function's time after its last check
// stays its own), an arrow's expression body made a block with both checks,
// an unbraced loop body wrapped as `{check body}`, and the runtime's import
// and the slots' `var` first (after a hashbang's line, or after a directive
// prologue on its line: ProbeSiteInfo::prelude). Lines never
// change; columns change only after an insertion on the same line. A file the scanner
// cannot read is returned unchanged with its status and a
// reason (the plugins report it once, naming the file).
//
// The guard `__wp$on` is a global the runtime defines (js/profiler/dense.mjs),
// 0 until a session starts: V8 folds it and optimized code skips the checks
// while nothing profiles (docs/ARCHITECTURE.md, "What the checks cost"). The
// output therefore needs a runtime of the same release or later (one that
// defines it); bundles built before the guard keep working with a newer one.
//
// The temp takes `(0,e)`, never `(e)`: an anonymous function, arrow or class
// assigned to a name is named by it (the spec's NamedEvaluation sees through
// parentheses), so `return function(){}` gave a function whose `.name` was
// `__wp$t` — the page could see it, and Chromium's native Profiler reported
// lodash's `overArg` closures as `__wp$t`. A comma expression is no function
// definition; V8 drops the `0`.
import { boundary, writeScratch } from '../core/boundary.mjs';
import { withTools } from '../core/tools.mjs';

// The slow path is a `delete` on the runtime's Proxy, whose trap samples
// (js/profiler/dense.mjs), not a call: V8 records a call's target per call
// site and optimizes a call that never ran into a deoptimization, so with
// `__wp$s()` the first tick taken at a check threw its function back to
// unoptimized code. `delete` has no such feedback (docs/BENCHMARKS.md "The
// checks' slow path and V8's feedback").
// `__wp$f&&`: the slots are a module-level `var` the module's first
// statement sets from the import (ESM) or the `require` (CommonJS), not the
// import itself: an import is read through the module's cell with a hole
// check at every check, a module-level `var` is a plain context slot, which
// V8's context cells may also treat as a constant once written (under a
// session the checks cost ×0.64–0.80 of the import's; ×0.84–0.91 with
// Chromium's --no-function-context-cells: docs/BENCHMARKS.md "A module-level
// binding and no check in leaves"). A `var`, not a `const` or `let`: in an
// import cycle a function of this module may run before its first statement,
// and then the binding is undefined, `__wp$f&&` skips the check, where a
// `const` would throw a TDZ error into the page.
const CHECK = 'if(__wp$on&&__wp$f&&--__wp$f[0]<__wp$f[1])delete __wp$p.s;';
// A check as an expression, for exits inside a `return`: `if(c)d;` →
// `(c&&d)` (the same loads, decrement and slow path).
const asExpression = (check) => check.replace(/^if\((.*)\)(delete __wp\$p\.s);$/, '($1&&$2)');
// The light check, at the exits of a body that runs no other code
// (probe_sites.h): no decrement, so it takes a pending tick (ticker mode
// raises the threshold) and never reads the clock in counter mode.
const LIGHT = 'if(__wp$on&&__wp$f&&__wp$f[1]>0)delete __wp$p.s;';

/**
 * @param {string} code an ES module's source
 * @param {{runtime?: string|null, file?: string, format?: 'esm'|'cjs'|'auto', exitChecks?: boolean}} [options]
 *   runtime: module specifier that exports __wp$f and __wp$p and defines
 *   the global guard __wp$on (default 'webprof', the package's main entry);
 *   null = no binding, the checks use globals of those names (classic
 *   scripts, pages webprof/playwright rewrites); file: the source's name in the source map; format: how the
 *   runtime is bound before any other code (after a hashbang's line, or
 *   after directives on their line) - 'esm' (default) an import, 'cjs' a `require`,
 *   'auto' esm for a file with import/export declarations (or .mjs/.mts),
 *   else cjs (what a bundler loading raw node_modules files needs);
 *   exitChecks: false leaves function bodies without exit checks (at each
 *   `return` and before the body's `}`) and arrows' expression bodies without
 *   checks (smaller code; a function's time after its last check is then
 *   charged to whatever check comes next — docs/ARCHITECTURE.md, the accuracy
 *   model)
 * @returns {Promise<{code: string, sites: number, status: string, map: object|null,
 *   wrapped: number, exits: number, reason: string|null, format: string|null}>}
 *   sites: checks inserted; wrapped: unbraced loop bodies among them; exits:
 *   exit checks among them;
 *   format: 'esm' or 'cjs' as bound (null when runtime is null);
 *   map: a source map v3 back to `code` (null when nothing changed);
 *   reason: why the file was left as it is (status not 'Ok'), else null
 */
export async function transformForSampling(code, options = {}) {
  const runtime = options.runtime === undefined ? 'webprof' : options.runtime;
  // The probe sites come from the tools module (fetched on first use).
  const { status, reason, raw, text, info } = await withTools((m) => {
    const { ptr, len } = writeScratch(code, m);
    const st = m.findProbeSites(ptr, len, options.exitChecks !== false);
    if (st !== boundary().status.Ok)
      return { status: m.statusName(st), reason: m.statusMessage(st), raw: [], text: null };
    const info = { prelude: m.probeSitesPrelude(), moduleSyntax: m.probeSitesModuleSyntax() };
    // Edit kinds and their layout come from the core (probe_sites.h); an
    // exit edit with the light bit holds the light check.
    const edits = (check) => {
      const exit = asExpression(check);
      const t = [];
      t[m.probeSiteCheck] = CHECK;
      t[m.probeSiteCheckAfterDirective] = ';' + CHECK;
      t[m.probeSiteOpenBlock] = '{' + CHECK;
      t[m.probeSiteCloseBlock] = '}';
      t[m.probeSiteDeclareTemp] = 'var __wp$t;';
      t[m.probeSiteExitEnd] = ';' + check;
      t[m.probeSiteOpenArrow] = '{' + CHECK + 'var __wp$t=(0,';
      t[m.probeSiteCloseArrow] = ');' + CHECK + 'return __wp$t}';
      t[m.probeSiteOpenReturn] = '(__wp$t=(0,';
      t[m.probeSiteCloseReturn] = '),' + exit + ',__wp$t)';
      t[m.probeSiteReturnBare] = ' void' + exit;
      t[m.probeSiteReturnBareEnd] = ' void' + exit + ';';
      return t;
    };
    const exits = [
      m.probeSiteExitEnd,
      m.probeSiteCloseArrow,
      m.probeSiteCloseReturn,
      m.probeSiteReturnBare,
      m.probeSiteReturnBareEnd,
    ];
    // Every edit but these holds a check.
    const bare = [m.probeSiteCloseBlock, m.probeSiteDeclareTemp, m.probeSiteOpenReturn];
    const text = {
      shift: m.probeSiteKindShift,
      lightBit: m.probeSiteLight,
      texts: edits(CHECK),
      lightTexts: edits(LIGHT),
      wrapped: m.probeSiteOpenBlock,
      exits,
      bare,
    };
    const raw = m.probeSitesView().slice();
    return { status: 'Ok', reason: null, raw, text, info };
  });
  if (status !== 'Ok' || raw.length === 0)
    return { code, sites: 0, status, map: null, wrapped: 0, exits: 0, reason, format: null };
  const mask = text.lightBit - 1;
  const offsets = [];
  const inserts = [];
  let format = null;
  if (runtime !== null) {
    const esm = info.moduleSyntax || /\.m[jt]s$/.test(options.file || '');
    format = options.format === 'cjs' || (options.format === 'auto' && !esm) ? 'cjs' : 'esm';
  }
  let prelude = format !== null;
  let sites = 0;
  let wrapped = 0;
  let exits = 0;
  for (const site of raw) {
    const offset = site & mask;
    if (prelude && info.prelude <= offset) {
      offsets.push(info.prelude);
      inserts.push(binding(format, runtime));
      prelude = false;
    }
    const kind = site >>> text.shift;
    const s = (site & text.lightBit ? text.lightTexts : text.texts)[kind];
    if (!text.bare.includes(kind)) sites++;
    if (kind === text.wrapped) wrapped++;
    if (text.exits.includes(kind)) exits++;
    offsets.push(offset);
    inserts.push(s);
  }
  if (prelude) {
    offsets.push(info.prelude);
    inserts.push(binding(format, runtime));
  }
  const at = utf16Indexes(code, offsets);
  let out = '';
  let from = 0;
  for (let k = 0; k < at.length; k++) {
    out += code.slice(from, at[k]) + inserts[k];
    from = at[k];
  }
  out += code.slice(from);
  return {
    code: out,
    sites,
    status,
    map: sourceMap(code, at, inserts, options.file || 'input.js'),
    wrapped,
    exits,
    reason: null,
    format,
  };
}

// Before any other code (no line moves), so checks in
// code that runs at load time find the runtime. An ES module imports it
// there, first: its dependencies are evaluated in the order of their
// imports, so the runtime (which imports nothing of the page's) has run and
// defined the guard `__wp$on` before any other dependency can call into this
// module — in an import cycle one may, before this module's body has run:
// the slots' `var` is then unset and `__wp$f&&` skips the check. CommonJS,
// which has no hoisted import, gets the `require` there.
function binding(format, runtime) {
  const from = JSON.stringify(runtime);
  if (format === 'esm') return `import{__wp$f as __wp$m,__wp$p}from${from};var __wp$f=__wp$m;`;
  return `var __wp$r=require(${from}),__wp$f=__wp$r.__wp$f,__wp$p=__wp$r.__wp$p;`;
}

// The core reports UTF-8 byte offsets; JS strings index UTF-16 units.
// (A lone surrogate is 3 bytes as TextEncoder writes U+FFFD, 1 unit.)
function utf16Indexes(code, byteOffsets) {
  const out = [];
  let b = 0;
  let i = 0;
  for (const target of byteOffsets) {
    while (b < target && i < code.length) {
      const c = code.codePointAt(i);
      b += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      i += c >= 0x10000 ? 2 : 1;
    }
    out.push(i);
  }
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function vlq(n) {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let s = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v) digit |= 32;
    s += B64[digit];
  } while (v);
  return s;
}

// Lines never move, so each output line maps to the same source line; on a
// line with insertions, the text after each maps back by its length.
function sourceMap(code, at, inserts, file) {
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c === 10 || (c === 13 && code.charCodeAt(i + 1) !== 10) || c === 0x2028 || c === 0x2029)
      lineStarts.push(i + 1);
  }
  const perLine = new Map();
  let line = 0;
  for (let k = 0; k < at.length; k++) {
    const i = at[k];
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= i) line++;
    if (!perLine.has(line)) perLine.set(line, []);
    perLine.get(line).push([i - lineStarts[line], inserts[k].length]);
  }
  let prevSrcLine = 0;
  let prevSrcCol = 0;
  const lines = [];
  for (let l = 0; l < lineStarts.length; l++) {
    // [generated column, source column] pairs, generated columns ascending.
    const segs = [[0, 0]];
    let shift = 0;
    for (const [col, len] of perLine.get(l) || []) {
      segs.push([col + shift, col]); // the inserted text stands for its site
      shift += len;
      segs.push([col + shift, col]);
    }
    let prevGen = 0;
    lines.push(
      segs
        .map(([gen, src], k) => {
          const s = vlq(gen - prevGen) + vlq(0) + vlq(k === 0 ? l - prevSrcLine : 0) + vlq(src - prevSrcCol);
          prevGen = gen;
          prevSrcLine = l;
          prevSrcCol = src;
          return s;
        })
        .join(','),
    );
  }
  return { version: 3, file, sources: [file], sourcesContent: [code], names: [], mappings: lines.join(';') };
}

// The plugins' default include / exclude: every JavaScript module the
// bundler loads, dependencies in node_modules included (library time is
// sampled like app time); TypeScript and JSX once compiled. Only webprof's
// own code is left out (its checks would sample the sampler). To leave
// dependencies out: `exclude: /node_modules/` (docs/ARCHITECTURE.md, "The
// sampling transform", says what that costs).
export const JS_FILE = /\.(m?js|cjs|jsx|tsx?|mts|cts)$/;
export const SKIP = /[\\/]webprof[\\/](js|dist)[\\/]/;

/**
 * Whether `id` is one of webprof's own files: beside the resolved entry of
 * the default runtime (the package's dist/ holds only webprof). SKIP finds
 * them by path in node_modules; a linked or workspace copy (`npm link`, a
 * folder not named webprof) is found here, else its chunk would be
 * transformed and call the checks before they exist.
 */
export function ownFile(runtime, runtimeId, id) {
  if (runtime !== 'webprof' || !runtimeId) return false;
  const dir = runtimeId.slice(0, Math.max(runtimeId.lastIndexOf('/'), runtimeId.lastIndexOf('\\')) + 1);
  return id.startsWith(dir);
}

/** Whether a module id is transformed by default. */
export function shouldTransform(id, include = JS_FILE, exclude = SKIP) {
  return include.test(id) && !exclude.test(id);
}

/** The text a plugin reports, once, for a file it leaves unsampled. */
export function unsampledMessage(file, result) {
  return `webprof: ${file} left unsampled: ${result.reason} (${result.status})`;
}
