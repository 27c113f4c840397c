// The JS side of the Wasm boundary (src/boundary/boundary.h). With
// instance.mjs (which loads the instance) it is the only module that calls the core's raw
// `_wp_*` exports, and the one reader of what the core declares about them:
// status codes, session states, sampler configuration kinds, console filter
// modes, the ids' encoding and the records read and written in Wasm memory.
// All of it comes from the core's `boundary()` object
// (wasm/bind_boundary.cpp), read once: no number here is a copy.
//
// Hot paths keep references to exports taken once, after one call each
// (before that call an export is a slow lazy wrapper; TOOLCHAIN.md).
// Data leaves Wasm memory only as copies: memory growth detaches views.
// It imports the instance, not js/core/core.mjs: the probes use this module,
// and `webprof/perf` alone must not ask for the page's core. The probes'
// calls go to probesCore(), the rest to core() (the same instance but when
// the full API came late: js/core/instance.mjs).
import {
  core,
  coreUnchecked,
  loadedModules,
  poison,
  probesCore,
  trapped,
  WebprofError,
} from './instance.mjs';

let declared = null;
/**
 * What the core declares about the boundary (after `ready`), read once from
 * the JSON the core writes (src/boundary/boundary.h DeclarationsJson):
 * {status: {Ok: 0, BufferFull: …}, statusText: [message by code],
 * sessionStates: ['started', …], samplerConfig: {OwnUrlPrefix, …},
 * consoleFilter: {None, Prefix, Allowed}, noId, noneU32, sampleMaskBits,
 * records: {sampleRow: {timestamp, stack, size}, …}}.
 */
export function boundary() {
  if (declared) return declared;
  // The same in every build (one writer): any loaded instance says it.
  const m = loadedModules()[0] || core();
  return (declared = deepFreeze(JSON.parse(readText(m, m._wp_boundary(), m._wp_boundary_len()))));
}

function deepFreeze(o) {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v);
  return Object.freeze(o);
}

let statusNames = null;
/** The core's name of a status code (e.g. 'BufferFull'). */
export function statusName(status) {
  if (!statusNames) {
    statusNames = [];
    for (const [name, code] of Object.entries(boundary().status)) statusNames[code] = name;
  }
  return statusNames[status] || String(status);
}

/** Decodes an id result: >= 0 an id, noId none, else the Status it encodes. */
export function statusOfId(result) {
  return boundary().noId - result;
}

/**
 * Throws a WebprofError carrying the core's message (its own status table,
 * never a copy kept here) unless `status` is Ok.
 */
export function check(status, context) {
  const b = boundary();
  if (status === b.status.Ok) return;
  if (status === b.status.Trapped) throw poison('trapped');
  const text = b.statusText[status] || `status ${status}`;
  throw new WebprofError(`webprof: ${context ? context + ': ' : ''}${text}`, statusName(status));
}

/** An id result's id, or noId; a failure throws (check). */
export function checkId(result, context) {
  const noId = boundary().noId;
  if (result >= noId) return result;
  check(noId - result, context);
  return noId;
}

/**
 * Test-only (tests/js/trap-*.test.mjs): the core's next call that does work
 * executes a Wasm trap, as a bug in it would (wasm/bind_boundary.cpp
 * wp_debug_trap). The instance is unusable afterwards.
 */
export function debugTrapNextCall() {
  for (const m of loadedModules()) enter(() => m._wp_debug_trap());
}

// ---- text into the core ----
const encoder = new TextEncoder();
/**
 * UTF-8 encodes `text` into the scratch buffer of core `m` (the full API's
 * by default). Valid until the next writeScratch call.
 */
export function writeScratch(text, m = core()) {
  const max = text.length * 3;
  const ptr = enter(() => m._wp_scratch(max));
  const { written } = encoder.encodeInto(text, m.HEAPU8.subarray(ptr, ptr + max));
  return { ptr, len: written };
}

// Every raw call below runs inside enter(): a Wasm trap becomes the
// instance's WebprofError (core.mjs poison), never a bare RuntimeError.
function enter(fn) {
  try {
    return fn();
  } catch (e) {
    throw trapped(e);
  }
}

const decoder = new TextDecoder();
function readText(m, ptr, len) {
  return decoder.decode(m.HEAPU8.slice(ptr, ptr + len));
}

// ---- sessions (js/profiler/trace.mjs) ----
/** One sample for the core Session at `handle`; returns a Status. */
export function sessionSample(handle, timestamp, stack) {
  // Per sample: no closure, and the core's entry check instead of asking
  // first (a poisoned core returns Status Trapped).
  const m = coreUnchecked();
  try {
    return m._wp_session_sample(handle, timestamp, stack);
  } catch (e) {
    throw trapped(e);
  }
}

// ---- the polyfill sampler (js/profiler/sampler.mjs, deferred.mjs) ----
/** The sampler's configure(kind, ptr, len) (kinds: boundary().samplerConfig). */
export function samplerConfigure(kind, ptr, len) {
  return enter(() => core()._wp_profiler_config(kind, ptr, len));
}
/** Adds / removes a session (by core handle) to those the sampler feeds. */
export function samplerAttach(handle) {
  return enter(() => core()._wp_profiler_attach(handle));
}
export function samplerDetach(handle) {
  return enter(() => core()._wp_profiler_detach(handle));
}
/** A due sample whose stack text follows later; returns how many sessions kept it. */
export function samplerDefer(timestamp, mask) {
  const m = coreUnchecked();
  let kept;
  try {
    kept = m._wp_profiler_defer(timestamp, mask);
  } catch (e) {
    throw trapped(e);
  }
  // None kept: the sessions refused it, or the core refused the call.
  if (kept === 0 && m._wp_health() !== 1) throw poison('trapped');
  return kept;
}
/** An idle sample (no stack) for the sessions in `mask`. */
export function samplerIdle(timestamp, mask) {
  const m = coreUnchecked();
  try {
    m._wp_profiler_idle(timestamp, mask);
  } catch (e) {
    throw trapped(e);
  }
  if (m._wp_health() !== 1) throw poison('trapped');
}
/**
 * n samples of one capture (the ticker's ticks since the last sample):
 * sample j at times[j] for the sessions masks[j] selects, written as DueRows
 * (boundary.h) where the core reads them. `stack`: their stack text follows
 * later (returns how many were kept; > 0: one capture pending, as
 * samplerDefer); else idle samples (returns 0). samplerResult(k) gives each
 * session's outcome over all n.
 */
export function samplerTakeMany(times, masks, n, stack) {
  const m = coreUnchecked();
  let kept = 0;
  try {
    const ptr = m._wp_profiler_due_rows(n);
    if (ptr !== 0) {
      const { timestamp, mask, size } = boundary().records.dueRow;
      const heap = m.HEAPF64; // after the call: memory may have grown
      for (let j = 0, at = ptr >> 3; j < n; j++, at += size) {
        heap[at + timestamp] = times[j];
        heap[at + mask] = masks[j];
      }
      if (stack) kept = m._wp_profiler_defer_rows(n);
      else m._wp_profiler_idle_rows(n);
    }
  } catch (e) {
    throw trapped(e);
  }
  if (kept === 0 && m._wp_health() !== 1) throw poison('trapped');
  return kept;
}
/** The Status of the last defer/idle for the k-th attached session. */
export function samplerResult(k) {
  const m = coreUnchecked(); // a pure read of the last call's results
  return m.HEAP32[(m._wp_profiler_results() >> 2) + k];
}
/** One sample from stack text for one session (replay before `ready`); returns a Status. */
export function samplerSampleOne(handle, text, timestamp) {
  const { ptr, len } = writeScratch(text);
  return enter(() => core()._wp_profiler_sample_one(handle, ptr, len, timestamp));
}
/**
 * One due sample parsed at once (not deferred) from stack text already in
 * the scratch buffer (`written`: what writeScratch returned); returns the
 * parse Status. For benchmarks that time encoding and parsing apart.
 */
export function samplerSample(written, timestamp, mask) {
  return enter(() => core()._wp_profiler_sample(written.ptr, written.len, timestamp, mask));
}
/** Captures still waiting for their text. */
export function samplerPending() {
  return enter(() => core()._wp_profiler_pending());
}
/** The text of the oldest deferred capture; returns the parse Status. */
export function samplerResolve(text) {
  const { ptr, len } = writeScratch(text);
  return enter(() => core()._wp_profiler_resolve(ptr, len));
}
/** Resolves the oldest deferred capture without a stack. */
export function samplerSkip() {
  enter(() => core()._wp_profiler_skip());
}
/** The '\n'-joined script URLs the sampler's last capture refused as unclassified. */
export function samplerUnclassified() {
  const m = core();
  return enter(() => readText(m, m._wp_profiler_unclassified(), m._wp_profiler_unclassified_len()));
}

// ---- explicit probes (js/probes/probes.mjs) ----
/** Interns a probe name; returns an id result (statusOfId decodes a failure). */
export function probesIntern(name) {
  const m = probesCore();
  const { ptr, len } = writeScratch(name, m);
  return enter(() => m._wp_probes_intern(ptr, len));
}
/** Opens a window (true if a new one opened). */
export function probesStart(t, markLimit, traceLimit) {
  return enter(() => probesCore()._wp_probes_start(t, markLimit, traceLimit)) !== 0;
}
/** Closes the window; returns a Status (NotRecording when none was open). */
export function probesEnd(t) {
  return enter(() => probesCore()._wp_probes_end(t));
}
/** The last finished window: a copy of its f64 records (boundary().records). */
export function probesReport() {
  const m = probesCore();
  const ptr = enter(() => m._wp_probes_report()) >> 3;
  return m.HEAPF64.slice(ptr, ptr + m._wp_probes_report_len());
}
/**
 * The probes' hot paths, each a reference to its export taken once (after a
 * call that changes nothing): a JS wrapper would cost a call per probe.
 */
export function probeExports() {
  const m = probesCore();
  m._wp_probes_aggr_start(-1, 0);
  m._wp_probes_aggr_end(-1, 0);
  m._wp_probes_aggr_start_named(-1, 0);
  m._wp_probes_aggr_end_named(-1, 0);
  m._wp_probes_trace_start(-1, 0, 0);
  m._wp_probes_trace_end(-1, 0, -1);
  m._wp_probes_trace_end_named(-1, 0, -1);
  m._wp_probes_mark(-1, 0, -1);
  // Admission (1 = read the clock and make the timed call, 0 = dropped).
  m._wp_probes_admit_aggr_start(-1);
  m._wp_probes_admit_aggr_end(-1);
  m._wp_probes_admit_aggr_end_named(-1);
  m._wp_probes_admit_trace_start(-1, 0);
  m._wp_probes_admit_trace_end(-1);
  m._wp_probes_admit_trace_end_named(-1);
  m._wp_probes_admit_mark(-1);
  return {
    aggrStart: m._wp_probes_aggr_start,
    aggrEnd: m._wp_probes_aggr_end,
    aggrStartNamed: m._wp_probes_aggr_start_named,
    aggrEndNamed: m._wp_probes_aggr_end_named,
    traceStart: m._wp_probes_trace_start,
    traceEnd: m._wp_probes_trace_end,
    traceEndNamed: m._wp_probes_trace_end_named,
    mark: m._wp_probes_mark,
    admitAggrStart: m._wp_probes_admit_aggr_start,
    admitAggrEnd: m._wp_probes_admit_aggr_end,
    admitAggrEndNamed: m._wp_probes_admit_aggr_end_named,
    admitTraceStart: m._wp_probes_admit_trace_start,
    admitTraceEnd: m._wp_probes_admit_trace_end,
    admitTraceEndNamed: m._wp_probes_admit_trace_end_named,
    admitMark: m._wp_probes_admit_mark,
  };
}

// ---- the console reporter (js/probes/console-reporter.mjs) ----
/** The core's SortKey for `sortBy` (an id result). */
export function probesSortKey(sortBy) {
  const m = probesCore();
  const { ptr, len } = writeScratch(sortBy, m);
  return enter(() => m._wp_probes_sort_key(ptr, len));
}
/**
 * The core's console formatter, fed a report piece by piece (the calls of
 * wasm/bind_probes.cpp's wp_probes_fmt_*); run() returns the text.
 */
export const consoleFormat = {
  begin(generation, startedAt, endedAt, marksDropped, tracesDropped, tracesIncomplete) {
    enter(() =>
      probesCore()._wp_probes_fmt_begin(
        generation,
        startedAt,
        endedAt,
        marksDropped,
        tracesDropped,
        tracesIncomplete,
      ),
    );
  },
  /** Starts on the recorder's own last window instead; false if it is not window `generation` now. */
  window(generation) {
    return probesCore()._wp_probes_fmt_window(generation) === boundary().status.Ok;
  },
  aggr(name, a) {
    enter(() =>
      probesCore()._wp_probes_fmt_aggr(name, a.count, a.sum, a.avg, a.max, a.min, a.p50, a.p90, a.p99),
    );
  },
  mark(name, timestamp, info, boundaryMark) {
    enter(() => probesCore()._wp_probes_fmt_mark(name, timestamp, info, boundaryMark ? 1 : 0));
  },
  trace(name, timestamp, duration, info) {
    enter(() => probesCore()._wp_probes_fmt_trace(name, timestamp, duration, info));
  },
  /** Info slot `slot` as JSON text, or null when it cannot be printed. */
  info(slot, json) {
    if (json === null) enter(() => probesCore()._wp_probes_fmt_info(slot, 0, 0, 0));
    else {
      const m = probesCore();
      const { ptr, len } = writeScratch(json, m);
      enter(() => m._wp_probes_fmt_info(slot, 1, ptr, len));
    }
  },
  allow(name) {
    enter(() => probesCore()._wp_probes_fmt_allow(name));
  },
  /** mode: boundary().consoleFilter; prefix: the text of a Prefix filter. */
  run(sortKey, header, mode, prefix) {
    const m = probesCore();
    let ptr = 0;
    let len = 0;
    if (prefix !== undefined) ({ ptr, len } = writeScratch(prefix, m));
    const textPtr = enter(() => m._wp_probes_fmt_run(sortKey, header ? 1 : 0, mode, ptr, len));
    return readText(m, textPtr, m._wp_probes_fmt_len());
  },
};
