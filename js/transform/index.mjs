// Build-time transform for dense sampling: inserts a probe-site check at
// every function entry and braced loop body, so long synchronous code is
// sampled (js/dense.mjs is the runtime; docs/ARCHITECTURE.md the model).
//
// Where: the core finds the sites (FindProbeSites in src/source_scanner.h,
// the same tokenizer that resolves frames), so strings, templates, regexes
// and comments are never mistaken for code. What: `if(--__wp$f[0]<0)__wp$s();`
// right after the `{` (after a 'use strict' prologue), and one import at the
// END of the module (imports are hoisted, so no line moves). Lines never
// change; columns change only for code that follows a body's `{` on the
// same line. A file the scanner cannot read is returned unchanged.
import { ready, guard, writeScratch } from '../core.mjs';

export const CHECK = 'if(--__wp$f[0]<0)__wp$s();';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * @param {string} code an ES module's source
 * @param {{runtime?: string}} [options] module specifier that exports
 *   __wp$f and __wp$s (default 'webprof', the package's main entry)
 * @returns {Promise<{code: string, sites: number, status: string}>}
 */
export async function transformForSampling(code, options = {}) {
  await ready;
  const runtime = options.runtime || 'webprof';
  const bytes = encoder.encode(code);
  const { status, sites } = guard((m) => {
    const { ptr, len } = writeScratch(code);
    const s = m.findProbeSites(ptr, len);
    return { status: s === 0 ? 'Ok' : m.statusName(s), sites: s === 0 ? m.probeSitesView().slice() : [] };
  });
  if (status !== 'Ok' || sites.length === 0) return { code, sites: 0, status };
  const check = encoder.encode(CHECK);
  const out = new Uint8Array(bytes.length + sites.length * check.length);
  let from = 0;
  let at = 0;
  for (const site of sites) {
    out.set(bytes.subarray(from, site), at);
    at += site - from;
    out.set(check, at);
    at += check.length;
    from = site;
  }
  out.set(bytes.subarray(from), at);
  const tail = `\nimport { __wp$f, __wp$s } from ${JSON.stringify(runtime)};\n`;
  return { code: decoder.decode(out) + tail, sites: sites.length, status };
}

const JS_FILE = /\.(m?js|jsx)$/;
const SKIP = /node_modules|[\\/]webprof[\\/](js|dist)[\\/]/;

/** Whether a module id is transformed by default (app code, not deps). */
export function shouldTransform(id, include = JS_FILE, exclude = SKIP) {
  return include.test(id) && !exclude.test(id);
}
