// The probes entry for applications bundled with the perf flags
// (js/build-flags/). Each export is a top-level ternary on the master flag,
// so with __webprof_perf__ defined false the bundler keeps only the no-op
// stand-ins and drops js/probes/probes.mjs, the Wasm loader and the reporters (the
// package is `sideEffects: false`). Do not let a transpiler rewrite these
// ternaries before the minifier sees them. Unbundled (flag undefined), the
// real probes are used. Where another copy of webprof already runs on the
// page (the drop-in script), its probes are used instead (js/core/page.mjs),
// so both record into one window and one core.
import { pageHost } from './core/page.mjs';
import * as impl from './probes/probes.mjs';
import * as off from './probes/probes-off.mjs';
import * as framework from './probes/framework-probes.mjs';
import * as consoleImpl from './probes/console-reporter.mjs';

// Unbundled the flag is undeclared: probes on.
const ON = typeof __webprof_perf__ === 'undefined' || __webprof_perf__;
// Read only in the ON branches: flags off, the call and its module drop out.
// Each export picks its own function (a pure call per name), so an app's
// bundler keeps only the probes modules whose exports the app uses.
const host = /* @__PURE__ */ pageHost();
const pick = (name, own) => (host ? host[name] : own);

export const start = ON ? /* @__PURE__ */ pick('start', impl.start) : off.noop;
export const end = ON ? /* @__PURE__ */ pick('end', impl.end) : off.noop;
export const aggrStart = ON ? /* @__PURE__ */ pick('aggrStart', impl.aggrStart) : off.minusOne;
export const aggrEnd = ON ? /* @__PURE__ */ pick('aggrEnd', impl.aggrEnd) : off.noop;
export const traceStart = ON ? /* @__PURE__ */ pick('traceStart', impl.traceStart) : off.minusOne;
export const traceEnd = ON ? /* @__PURE__ */ pick('traceEnd', impl.traceEnd) : off.noop;
export const mark = ON ? /* @__PURE__ */ pick('mark', impl.mark) : off.noop;
export const setReporter = ON ? /* @__PURE__ */ pick('setReporter', impl.setReporter) : off.noop;
export const clearReporter = ON ? /* @__PURE__ */ pick('clearReporter', impl.clearReporter) : off.noop;
export const consoleReporter = ON
  ? /* @__PURE__ */ pick('consoleReporter', consoleImpl.consoleReporter)
  : off.noop;
export const createConsoleReporter = ON
  ? /* @__PURE__ */ pick('createConsoleReporter', consoleImpl.createConsoleReporter)
  : off.reporterFactory;
export const scopeStart = ON ? /* @__PURE__ */ pick('scopeStart', impl.scopeStart) : off.minusOne;
export const scopeEnd = ON ? /* @__PURE__ */ pick('scopeEnd', impl.scopeEnd) : off.noop;
export const measureStart = ON ? /* @__PURE__ */ pick('measureStart', impl.measureStart) : off.minusOne;
export const measureEnd = ON ? /* @__PURE__ */ pick('measureEnd', impl.measureEnd) : off.noop;
export const installFrameworkProbes = ON
  ? /* @__PURE__ */ pick('installFrameworkProbes', framework.installFrameworkProbes)
  : off.reporterFactory;
