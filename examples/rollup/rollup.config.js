// Rollup keeps `new URL('./webprof-core.wasm', import.meta.url)` as it is:
// the build script copies the .wasm beside the bundle (package.json).
import { nodeResolve } from '@rollup/plugin-node-resolve';

export default {
  input: 'main.js',
  output: { dir: 'dist', format: 'es' },
  plugins: [nodeResolve({ browser: true })],
};
