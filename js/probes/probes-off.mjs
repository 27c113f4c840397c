// The stand-ins js/perf.mjs exports when the probes are compiled out.
export function noop() {}
export function minusOne() {
  return -1;
}
// Also installFrameworkProbes: returns a no-op uninstall.
export function reporterFactory() {
  return noop;
}
