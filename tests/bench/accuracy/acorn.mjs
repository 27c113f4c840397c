// acorn (a hand-written recursive-descent parser, per-character helpers):
// lodash's 540 KB source, first tokenized, then parsed — two named phases
// (wpPhase*, timed by the bench: see lodash.mjs).
import { parse, tokenizer } from 'acorn';

export const inputs = ['/node_modules/lodash/lodash.js'];
let source = '';
export function setup(texts) {
  source = texts[0];
}
function wpPhaseTokenize() {
  let n = 0;
  for (const token of tokenizer(source, { ecmaVersion: 'latest' })) n += token.end - token.start > 0 ? 1 : 0;
  return n;
}
function wpPhaseParse() {
  return parse(source, { ecmaVersion: 'latest', locations: true }).body.length;
}
const direct = (f, ...args) => f(...args);
export function unit(time = direct) {
  return time(wpPhaseTokenize) + time(wpPhaseParse);
}
