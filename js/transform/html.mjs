// The dense-sampling transform of a whole HTML document: every inline
// classic or module <script> is passed through transformForSampling in
// place, so the page's own inline code is sampled like its files.
//
// Positions: the core finds the <script> elements (FindHtmlScripts in
// src/source/html_scripts.h, the same finder that resolves inline frames)
// and each script's text is replaced by its transform, which only inserts
// after a `{` on the same line. So every line of the document stays where it
// was, and so does every column before an insertion: the frames of inline
// code point at the original document.
//
// What is left alone, and reported in `skipped` with the reason:
//  - every inline script when the document's Content-Security-Policy (the
//    response header or a <meta http-equiv>) allows inline code by hash: a
//    rewritten script no longer matches its hash and would be blocked;
//  - inline scripts before the `from` offset (the drop-in's own tag, whose
//    globals the checks need, comes later in the document);
//  - an inline script the transform cannot read (its status);
// and `integrity` lists the external scripts with a Subresource Integrity
// hash: rewriting their files would make the browser refuse them.
import { boundary, writeScratch } from '../core/boundary.mjs';
import { withTools } from '../core/tools.mjs';
import { transformForSampling } from './index.mjs';

/** Whether a Content-Security-Policy text allows inline scripts by hash. */
export function cspHasHashes(policy) {
  return /'sha(256|384|512)-/i.test(policy || '');
}

function metaPolicies(html) {
  const out = [];
  const re = /<meta\b[^>]*http-equiv\s*=\s*["']?content-security-policy["'\s>][^>]*>/gi;
  for (const m of html.matchAll(re)) {
    const c = /content\s*=\s*("([^"]*)"|'([^']*)')/i.exec(m[0]);
    if (c) out.push(c[2] ?? c[3]);
  }
  return out;
}

/**
 * @param {string} html the document's text
 * @param {{csp?: string, from?: number, file?: string}} [options] csp: the
 *   response's Content-Security-Policy header; from: UTF-16 index before
 *   which inline scripts are left as they are; file: the document's URL
 * @returns {Promise<{code: string, scripts: number, sites: number,
 *   skipped: {line: number, reason: string}[], integrity: string[],
 *   before: string[]}>}
 *   scripts: inline scripts rewritten; skipped: inline scripts left as they
 *   are (line of their start in the document); integrity: `src` values of
 *   external scripts that carry an `integrity` attribute; before: `src`
 *   values of external scripts placed before `from` (they run before it)
 */
export async function transformHtmlForSampling(html, options = {}) {
  const bytes = new TextEncoder().encode(html);
  const rows = await withTools((m) => {
    const { ptr, len } = writeScratch(html, m);
    return m.findHtmlScripts(ptr, len).slice();
  });
  const decoder = new TextDecoder();
  const text = (a, b) => decoder.decode(bytes.subarray(a, b));
  const lineAt = (byte) => {
    let n = 1;
    for (let i = 0; i < byte; i++) if (bytes[i] === 10) n++;
    return n;
  };
  const fromByte =
    options.from === undefined ? 0 : new TextEncoder().encode(html.slice(0, options.from)).length;
  const hashes = cspHasHashes(options.csp) || metaPolicies(html).some(cspHasHashes);
  const skipped = [];
  const integrity = [];
  const before = [];
  let out = '';
  let at = 0;
  let scripts = 0;
  let sites = 0;
  const { noneU32, records, htmlScriptFlags: F } = boundary();
  const R = records.htmlScriptRow;
  for (let r = 0; r < rows.length; r += R.size) {
    const [begin, end, flags, srcBegin, srcEnd] = [R.begin, R.end, R.flags, R.srcBegin, R.srcEnd].map(
      (k) => rows[r + k],
    );
    if (srcBegin !== noneU32) {
      const src = decodeEntities(text(srcBegin, srcEnd));
      if (flags & F.Integrity) integrity.push(src);
      if (begin < fromByte) before.push(src);
      continue;
    }
    if (!(flags & F.JavaScript) || begin === end) continue;
    const skip = (reason) => skipped.push({ line: lineAt(begin), reason });
    if (hashes) {
      skip('the Content-Security-Policy allows inline scripts by hash');
      continue;
    }
    if (begin < fromByte) {
      skip('before webprof');
      continue;
    }
    const t = await transformForSampling(text(begin, end), { runtime: null, file: options.file });
    if (t.status !== 'Ok') {
      skip(`the transform cannot read it (${t.status})`);
      continue;
    }
    out += text(at, begin) + t.code;
    at = end;
    scripts++;
    sites += t.sites;
  }
  out += text(at, bytes.length);
  return { code: out, scripts, sites, skipped, integrity, before };
}

// Attribute values may carry character references (&amp; in a query).
function decodeEntities(v) {
  return v.replace(/&(amp|quot|apos|lt|gt|#(\d+)|#x([0-9a-f]+));/gi, (m, name, dec, hex) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' }[name.toLowerCase()];
  });
}
