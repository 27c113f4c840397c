// What every core importer call shares (js/import/*.mjs): the profile's
// bytes copied into Wasm memory, the binding called on a new session, a
// refusal turned into a WebprofError with the core's own sentence, and the
// session freed on any failure. Ownership: on success the caller owns the
// session (it hands it to toHeldTrace).
import { core, guard, WebprofError } from '../core/core.mjs';
import { boundary, check } from '../core/boundary.mjs';
import { TraceSession } from '../profiler/trace.mjs';

/**
 * The UTF-8 bytes of a profile given as text, bytes or (`objects`) a JSON
 * object; null for anything else.
 */
export function profileBytes(profile, { objects = false } = {}) {
  if (typeof profile === 'string') return new TextEncoder().encode(profile);
  if (profile instanceof ArrayBuffer) return new Uint8Array(profile);
  if (profile instanceof Uint8Array) return profile;
  if (objects && profile !== null && typeof profile === 'object')
    return new TextEncoder().encode(JSON.stringify(profile));
  return null;
}

/**
 * A number option of an importer: `fallback` when not given, else a number
 * (not NaN) or a TypeError naming it. Which numbers are times the core
 * decides (src/base/time_units.h ProfileTimeProblem), for every importer alike.
 */
export function numberOption(v, fallback, name) {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || Number.isNaN(v)) throw new TypeError(`webprof: ${name} must be a number`);
  return v;
}

/**
 * Runs `binding(module, sessionHandle, ptr, length)` (an importer bound in
 * the Node-side core, named `name`) over `bytes` into a new TraceSession
 * made with `sessionOptions`; `what` names the input in errors.
 * @returns {{session: TraceSession, info: object}}
 */
export function runImporter(name, what, bytes, sessionOptions, binding) {
  if (typeof core()[name] !== 'function')
    throw new WebprofError(`webprof: ${name} runs in Node, from 'webprof/playwright'`);
  const session = new TraceSession(sessionOptions);
  try {
    const info = guard((m) => {
      const ptr = m._malloc(Math.max(1, bytes.length));
      if (!ptr) throw new WebprofError(`webprof: out of memory for the ${what}`);
      try {
        m.HEAPU8.set(bytes, ptr);
        return binding(m, session.coreHandle(), ptr, bytes.length);
      } finally {
        m._free(ptr);
      }
    });
    if (info.status !== boundary().status.Ok) {
      if (!info.error) check(info.status, what);
      throw new WebprofError(`webprof: ${info.error}`, core().statusName(info.status));
    }
    return { session, info };
  } catch (e) {
    session.dispose();
    throw e;
  }
}
