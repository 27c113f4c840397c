// V8's .cpuprofile (what the DevTools protocol's Profiler.stop returns,
// DevTools' "Save profile", `node --cpu-prof`) into webprof's trace model,
// by the core's importer (src/import/cpuprofile.h has every rule: the node
// tree, V8's pseudo-frames, times). The result is a trace like the one a
// stopped Profiler returns: exported, summarised and read as any other.
import { core, guard, WebprofError } from '../core/core.mjs';
import { boundary, check } from '../core/boundary.mjs';
import { TraceSession, toHeldTrace } from '../profiler/trace.mjs';

/**
 * @param {Uint8Array | ArrayBuffer | string | object} profile the profile (JSON text, or the object)
 * @param {{timeOrigin?: number, sampleInterval?: number, maxBufferSize?: number}} [options]
 *   timestamps count from timeOrigin (µs on the profile's clock; default its startTime)
 * @returns {{trace: object, startTime: number, timeOrigin: number, samples: number, truncated: boolean}}
 * Throws a WebprofError (code MalformedProfile) saying what is wrong.
 */
export function importCpuProfile(profile, options = {}) {
  const bytes =
    typeof profile === 'string'
      ? new TextEncoder().encode(profile)
      : profile instanceof ArrayBuffer
        ? new Uint8Array(profile)
        : profile instanceof Uint8Array
          ? profile
          : new TextEncoder().encode(JSON.stringify(profile));
  // Importers are bound only in the Node-side tools' core (wasm/node/).
  if (typeof core().importCpuProfile !== 'function')
    throw new WebprofError("webprof: importCpuProfile runs in Node, from 'webprof/playwright'");
  const origin = options.timeOrigin === undefined ? NaN : Number(options.timeOrigin);
  const session = new TraceSession({
    sampleInterval: options.sampleInterval ?? 1,
    maxBufferSize: options.maxBufferSize ?? 0xffffffff,
  });
  let info;
  try {
    info = guard((m) => {
      const ptr = m._malloc(Math.max(1, bytes.length));
      if (!ptr) throw new WebprofError('webprof: out of memory for the .cpuprofile');
      try {
        m.HEAPU8.set(bytes, ptr);
        return m.importCpuProfile(session.coreHandle(), ptr, bytes.length, origin);
      } finally {
        m._free(ptr);
      }
    });
    if (info.status !== boundary().status.Ok) {
      if (!info.error) check(info.status, '.cpuprofile');
      throw new WebprofError(`webprof: ${info.error}`, core().statusName(info.status));
    }
  } catch (e) {
    session.dispose();
    throw e;
  }
  return {
    trace: toHeldTrace(session),
    startTime: info.startUs,
    timeOrigin: info.timeOriginUs,
    samples: info.samples,
    truncated: info.truncated,
  };
}
