// The public API of webprof. Each line re-exports one module; the classic
// <script> build exposes the same names on the single global `webprof`.
export { ready, isReady, WebprofError } from './core.mjs';
export { TraceSession } from './trace.mjs';
export { resolveFrameDefinitions, clearSourceCache } from './fidelity.mjs';
