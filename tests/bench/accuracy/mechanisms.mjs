// Not a library: the three kinds of work marked's ticker-mode error came
// from, one named phase each (wpPhase*, timed by the bench as in lodash.mjs),
// so each profiler's phase shares can be held to their timed wall time
// (`node tests/bench/accuracy_bench.mjs 3000 1 mechanisms`):
//  - Regex: a tokenizer method whose time is one failing `RegExp.exec` that
//    scans a whole paragraph: no check inside; MarkedRegex: the same with
//    marked's own `lheading` expression (1 298 characters of alternatives and
//    lookaheads);
//  - Chars: a per-character loop with a check per character (marked's `Oe`);
//  - Alloc: small token objects made and dropped (marked's `list`,
//    `blockTokens`): its time includes the garbage collections it causes.
import { Lexer } from 'marked';

export const inputs = ['/README.md'];
const underline = /^((?:.|\n(?!\s*?\n))+?)\n {0,3}(=+|-+) *(?:\n+|$)/;
let paragraphs = [];
export function setup(texts) {
  paragraphs = texts
    .join('\n\n')
    .split(/\n\s*\n/)
    .filter((p) => p.length > 40);
}
class Tokenizer {
  lheading(src) {
    const cap = underline.exec(src);
    if (cap) return { type: 'heading', raw: cap[0], depth: cap[2][0] === '=' ? 1 : 2 };
  }
}
const tokenizer = new Tokenizer();
class MarkedTokenizer {
  rules = Lexer.rules.block.gfm;
  lheading(src) {
    const cap = this.rules.lheading.exec(src);
    if (cap) return { type: 'heading', raw: cap[0], depth: cap[2][0] === '=' ? 1 : 2 };
  }
}
const marked = new MarkedTokenizer();
function wpPhaseMarkedRegex() {
  let found = 0;
  for (const p of paragraphs) if (marked.lheading(p)) found++;
  return found;
}
function wpPhaseRegex() {
  let found = 0;
  for (let k = 0; k < 4; k++) for (const p of paragraphs) if (tokenizer.lheading(p)) found++;
  return found;
}
function mask(src) {
  let last = -1;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c !== '*' && c !== '_' && c !== '~') continue;
    last = i;
  }
  return last;
}
function wpPhaseChars() {
  let sum = 0;
  for (const p of paragraphs) sum += mask(p);
  return sum;
}
function token(p, i) {
  return { type: 'text', raw: p.slice(i, i + 8), text: p.slice(i, i + 8), tokens: [] };
}
function wpPhaseAlloc() {
  let n = 0;
  for (const p of paragraphs) {
    const list = [];
    for (let i = 0; i < p.length; i += 8) list.push(token(p, i));
    n += list.length;
  }
  return n;
}
const direct = (f, ...args) => f(...args);
export function unit(time = direct) {
  return time(wpPhaseRegex) + time(wpPhaseMarkedRegex) + time(wpPhaseChars) + time(wpPhaseAlloc);
}
