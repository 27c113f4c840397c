// Build-time transform for dense sampling: inserts a probe-site check at
// every function entry and braced loop body, so long synchronous code is
// sampled (js/profiler/dense.mjs is the runtime; docs/ARCHITECTURE.md the model).
//
// Where: the core finds the sites (FindProbeSites in src/source_scanner.h,
// the same tokenizer that resolves frames), so strings, templates, regexes
// and comments are never mistaken for code. What: `if(--__wp$f[0]<0)__wp$s();`
// right after the `{` (after a 'use strict' prologue), and one import at the
// END of the module (imports are hoisted, so no line moves). Lines never
// change; columns change only for code that follows a body's `{` on the
// same line. A file the scanner cannot read is returned unchanged.
import { ready, guard } from '../core/core.mjs';
import { boundary, writeScratch } from '../core/boundary.mjs';

const CHECK = 'if(--__wp$f[0]<0)__wp$s();';

/**
 * @param {string} code an ES module's source
 * @param {{runtime?: string|null, file?: string}} [options] runtime: module
 *   specifier that exports __wp$f and __wp$s (default 'webprof', the
 *   package's main entry); null = no import, the checks use globals of
 *   those names (classic scripts, pages webprof/playwright rewrites);
 *   file: the source's name in the source map
 * @returns {Promise<{code: string, sites: number, status: string, map: object|null}>}
 *   map: a source map v3 back to `code` (null when nothing changed)
 */
export async function transformForSampling(code, options = {}) {
  await ready;
  const runtime = options.runtime === undefined ? 'webprof' : options.runtime;
  const { status, sites } = guard((m) => {
    const { ptr, len } = writeScratch(code);
    const st = m.findProbeSites(ptr, len);
    const ok = st === boundary().status.Ok;
    return { status: m.statusName(st), sites: ok ? m.probeSitesView().slice() : [] };
  });
  if (status !== 'Ok' || sites.length === 0) return { code, sites: 0, status, map: null };
  const at = utf16Indexes(code, sites);
  let out = '';
  let from = 0;
  for (const i of at) {
    out += code.slice(from, i) + CHECK;
    from = i;
  }
  out += code.slice(from);
  const tail = runtime === null ? '' : `\nimport { __wp$f, __wp$s } from ${JSON.stringify(runtime)};\n`;
  return {
    code: out + tail,
    sites: sites.length,
    status,
    map: sourceMap(code, at, options.file || 'input.js'),
  };
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
// line with checks, the text after each check maps back by its length.
function sourceMap(code, at, file) {
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c === 10 || (c === 13 && code.charCodeAt(i + 1) !== 10) || c === 0x2028 || c === 0x2029)
      lineStarts.push(i + 1);
  }
  const perLine = new Map();
  let line = 0;
  for (const i of at) {
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= i) line++;
    if (!perLine.has(line)) perLine.set(line, []);
    perLine.get(line).push(i - lineStarts[line]);
  }
  let prevSrcLine = 0;
  let prevSrcCol = 0;
  const lines = [];
  for (let l = 0; l < lineStarts.length; l++) {
    // [generated column, source column] pairs, generated columns ascending.
    const segs = [[0, 0]];
    let shift = 0;
    for (const col of perLine.get(l) || []) {
      segs.push([col + shift, col]); // the inserted check stands for its site
      shift += CHECK.length;
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

// The plugins' default include / exclude: app modules, not dependencies or
// webprof itself (whose probe sites would sample webprof).
export const JS_FILE = /\.(m?js|jsx)$/;
export const SKIP = /node_modules|[\\/]webprof[\\/](js|dist)[\\/]/;

/** Whether a module id is transformed by default (app code, not deps). */
export function shouldTransform(id, include = JS_FILE, exclude = SKIP) {
  return include.test(id) && !exclude.test(id);
}
