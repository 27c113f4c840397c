// V8's .cpuprofile (what the DevTools protocol's Profiler.stop returns,
// DevTools' "Save profile", `node --cpu-prof`) into webprof's trace model,
// by the core's importer (src/import/cpuprofile.h has every rule: the node
// tree, V8's pseudo-frames, times). The result is a trace like the one a
// stopped Profiler returns: exported, summarised and read as any other.
import { toHeldTrace } from '../profiler/trace.mjs';
import { numberOption, profileBytes, runImporter } from './run-importer.mjs';

/**
 * @param {Uint8Array | ArrayBuffer | string | object} profile the profile (JSON text, or the object)
 * @param {{timeOrigin?: number, sampleInterval?: number, maxBufferSize?: number}} [options]
 *   timestamps count from timeOrigin (µs on the profile's clock; default its startTime)
 * @returns {{trace: object, startTime: number, timeOrigin: number, samples: number, truncated: boolean}}
 * Throws a WebprofError (code MalformedProfile; InvalidArgument for a timeOrigin that is no time: not
 * finite, negative, past 2^53 µs) saying what is wrong, and a TypeError for a timeOrigin not a number.
 */
export function importCpuProfile(profile, options = {}) {
  const bytes = profileBytes(profile, { objects: true });
  if (!bytes) throw new TypeError('webprof: a .cpuprofile is JSON: text, bytes or the parsed object');
  const origin = numberOption(options.timeOrigin, NaN, 'timeOrigin');
  const sessionOptions = {
    sampleInterval: options.sampleInterval ?? 1,
    maxBufferSize: options.maxBufferSize ?? 0xffffffff,
  };
  const { session, info } = runImporter(
    'importCpuProfile',
    '.cpuprofile',
    bytes,
    sessionOptions,
    (m, h, ptr, n) => m.importCpuProfile(h, ptr, n, origin),
  );
  return {
    trace: toHeldTrace(session),
    startTime: info.startUs,
    timeOrigin: info.timeOriginUs,
    samples: info.samples,
    truncated: info.truncated,
  };
}
