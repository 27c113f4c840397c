// prettier's standalone build with its babel and estree plugins (bundled,
// minified, async API): formats a small script.
import { format } from 'prettier/standalone';
import * as babel from 'prettier/plugins/babel';
import * as estree from 'prettier/plugins/estree';

export const inputs = ['/node_modules/acorn/dist/bin.js'];
let source = '';
export function setup(texts) {
  source = texts[0];
}
export async function unit() {
  const out = await format(source, { parser: 'babel', plugins: [babel, estree] });
  return out.length;
}
