// marked (a minified ESM markdown parser): this repository's docs to HTML,
// in two named phases (wpPhase*, timed by the bench: see lodash.mjs) —
// the lexer (block and inline tokenizers, RegExp-heavy) and the parser.
import { marked } from 'marked';

export const inputs = ['/docs/ARCHITECTURE.md', '/README.md'];
let doc = '';
export function setup(texts) {
  doc = texts.join('\n\n');
}
function wpPhaseLex() {
  return marked.lexer(doc);
}
function wpPhaseParse(tokens) {
  return marked.parser(tokens);
}
const direct = (f, ...args) => f(...args);
export function unit(time = direct) {
  return time(wpPhaseParse, time(wpPhaseLex)).length;
}
