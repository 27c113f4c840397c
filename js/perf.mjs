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
const host = /* @__PURE__ */ pageHost();
const P = /* @__PURE__ */ (() => host || impl)();
const C = /* @__PURE__ */ (() => host || consoleImpl)();
const F = /* @__PURE__ */ (() => host || framework)();

export const start = ON ? P.start : off.noop;
export const end = ON ? P.end : off.noop;
export const aggrStart = ON ? P.aggrStart : off.minusOne;
export const aggrEnd = ON ? P.aggrEnd : off.noop;
export const traceStart = ON ? P.traceStart : off.minusOne;
export const traceEnd = ON ? P.traceEnd : off.noop;
export const mark = ON ? P.mark : off.noop;
export const setReporter = ON ? P.setReporter : off.noop;
export const clearReporter = ON ? P.clearReporter : off.noop;
export const consoleReporter = ON ? C.consoleReporter : off.noop;
export const createConsoleReporter = ON ? C.createConsoleReporter : off.reporterFactory;
export const scopeStart = ON ? P.scopeStart : off.minusOne;
export const scopeEnd = ON ? P.scopeEnd : off.noop;
export const measureStart = ON ? P.measureStart : off.minusOne;
export const measureEnd = ON ? P.measureEnd : off.noop;
export const installFrameworkProbes = ON ? F.installFrameworkProbes : off.reporterFactory;
