// Nothing for webprof here: webpack 5 emits its .wasm from
// `new URL('./webprof-core.wasm', import.meta.url)` on its own.
import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  entry: './main.js',
  output: { path: fileURLToPath(new URL('./dist', import.meta.url)), filename: 'main.js', clean: true },
};
