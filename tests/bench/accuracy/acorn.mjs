// acorn (a hand-written recursive-descent parser, per-character helpers):
// parses lodash's 540 KB source.
import { parse } from 'acorn';

export const inputs = ['/node_modules/lodash/lodash.js'];
let source = '';
export function setup(texts) {
  source = texts[0];
}
export function unit() {
  return parse(source, { ecmaVersion: 'latest', locations: true }).body.length;
}
