// Nothing for webprof's .wasm here: Vite emits it from
// `new URL('./webprof-core.wasm', import.meta.url)` on its own.
//
// The headers serve the page cross-origin isolated in development and preview,
// so it may share memory with a Worker: code built with webprof's sampling
// transform (webprof/transform/vite) is then sampled in ticker mode, where
// samples land where time is spent (docs/ARCHITECTURE.md, the accuracy
// model). `credentialless` keeps cross-origin images and scripts without CORP
// headers loading; a production server sends the same two headers.
const isolated = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'credentialless',
};

export default {
  server: { headers: isolated },
  preview: { headers: isolated },
};
