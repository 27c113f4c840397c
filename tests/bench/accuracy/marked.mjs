// marked (minified ES module; class-based lexer and renderer, regex-heavy
// tokenizer): markdown documents to HTML.
import { marked } from 'marked';

export const inputs = ['/docs/ARCHITECTURE.md', '/README.md'];
let doc = '';
export function setup(texts) {
  doc = texts.join('\n\n');
}
export function unit() {
  return marked.parse(doc).length;
}
