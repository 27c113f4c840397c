// For Node tests of js/ modules that the package's entries do not export:
// imported first, it points js/'s core loader at the Wasm build (js/ has no
// .wasm beside it; dist/ does) before loading starts.
import { setWasmUrl } from '../../js/index.mjs';

setWasmUrl(new URL('../../build/wasm/wasm/webprof-core.wasm', import.meta.url));
