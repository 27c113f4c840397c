// The probes entry for applications bundled with the perf flags
// (js/build-flags/). Each export is a top-level ternary on the master flag,
// so with __webprof_perf__ defined false the bundler keeps only the no-op
// stand-ins and drops js/probes/probes.mjs, the Wasm loader and the reporters (the
// package is `sideEffects: false`). Do not let a transpiler rewrite these
// ternaries before the minifier sees them. Unbundled (flag undefined), the
// real probes are used.
import * as impl from './probes/probes.mjs';
import * as off from './probes/probes-off.mjs';
import * as framework from './probes/framework-probes.mjs';
import * as consoleImpl from './probes/console-reporter.mjs';

// Unbundled the flag is undeclared: probes on.
const ON = typeof __webprof_perf__ === 'undefined' || __webprof_perf__;

export const start = ON ? impl.start : off.noop;
export const end = ON ? impl.end : off.noop;
export const aggrStart = ON ? impl.aggrStart : off.minusOne;
export const aggrEnd = ON ? impl.aggrEnd : off.noop;
export const traceStart = ON ? impl.traceStart : off.minusOne;
export const traceEnd = ON ? impl.traceEnd : off.noop;
export const mark = ON ? impl.mark : off.noop;
export const setReporter = ON ? impl.setReporter : off.noop;
export const clearReporter = ON ? impl.clearReporter : off.noop;
export const consoleReporter = ON ? consoleImpl.consoleReporter : off.noop;
export const createConsoleReporter = ON ? consoleImpl.createConsoleReporter : off.reporterFactory;
export const scopeStart = ON ? impl.scopeStart : off.minusOne;
export const scopeEnd = ON ? impl.scopeEnd : off.noop;
export const measureStart = ON ? impl.measureStart : off.minusOne;
export const measureEnd = ON ? impl.measureEnd : off.noop;
export const installFrameworkProbes = ON ? framework.installFrameworkProbes : off.reporterFactory;
