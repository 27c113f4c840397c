// Where a Wasm build's bytes come from (js/core/instance.mjs loads them):
// one decision for the asynchronous load and the blocking one, each with its
// reader.

/** Whether this is Node (a file: URL is then a file to read). */
export const isNode = () =>
  typeof process === 'object' && !!process.versions && typeof process.versions.node === 'string';
const BASE64_DATA = /^data:[^,]*;base64,/;

// In Node a file: URL is read from disk ('file'); a base64 data: URL holds
// the bytes ('data': the Playwright agent ships the .wasm so); anything else
// is fetched ('fetch').
function byteSource(url) {
  if (url.startsWith('file:') && isNode()) return 'file';
  if (BASE64_DATA.test(url)) return 'data';
  return 'fetch';
}

/**
 * The bytes at `url` for an asynchronous load, or null where the build's
 * loader takes the URL itself (js/core/wasm-bare.mjs, or Emscripten's for
 * the Node-side core): its fetch reads a data: URL too, and compiles a
 * response as it streams in.
 */
export async function readBytes(url) {
  let bytes = null;
  if (byteSource(url) === 'file') {
    // Named through a variable so that the page's bundlers do not try to
    // resolve it. In this shape terser keeps it a variable too (a shorter
    // function got the literal inlined; tests/js/size.test.mjs bundles the
    // minified files for the browser and fails on it).
    const fsName = 'node:fs/promises';
    const fs = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName);
    bytes = await fs.readFile(new URL(url));
  }
  return bytes;
}

/**
 * The bytes at `url`, read now, blocking (for a caller that cannot wait:
 * js/core/tools.mjs toolsSync). Throws why it could not (no XMLHttpRequest,
 * an HTTP error, a file Node cannot read).
 */
export function readBytesSync(url) {
  let text;
  switch (byteSource(url)) {
    case 'file':
      if (typeof process.getBuiltinModule !== 'function')
        throw new Error('this Node cannot read a file synchronously here (no process.getBuiltinModule)');
      return process.getBuiltinModule('fs').readFileSync(new URL(url));
    case 'data':
      text = atob(url.slice(url.indexOf(',') + 1));
      break;
    default: {
      if (typeof XMLHttpRequest !== 'function') throw new Error('no XMLHttpRequest here');
      const xhr = new XMLHttpRequest();
      xhr.open('GET', url, false);
      // A document's synchronous request may not ask for an ArrayBuffer:
      // bytes come as the low byte of each character.
      xhr.overrideMimeType('text/plain; charset=x-user-defined');
      xhr.send();
      if (xhr.status !== 200) throw new Error(`HTTP ${xhr.status}`);
      text = xhr.responseText;
    }
  }
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}
