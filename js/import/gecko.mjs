// Firefox's own profiler: a Gecko profile JSON (what MOZ_PROFILER_SHUTDOWN
// writes) into webprof's trace model, by the core's importer
// (src/import/gecko_profile.h has every rule: which thread, the window,
// which frames). The result is a trace like the one a stopped Profiler
// returns: exported, summarised and read as any other.
import { toHeldTrace } from '../profiler/trace.mjs';
import { numberOption, profileBytes, runImporter } from './run-importer.mjs';

/**
 * @param {Uint8Array | ArrayBuffer | string} profile the profile's JSON text (UTF-8 bytes or a string)
 * @param {{pageUrl?: string, windowStart?: number, windowEnd?: number, timeOrigin?: number,
 *   maxBufferSize?: number}} [options] pageUrl picks the content process showing it; the window
 *   (Unix ms, e.g. Date.now() before and after) keeps the recording's samples only; timestamps
 *   count from timeOrigin (Unix ms; default the window start).
 * @returns {{trace: object, sampleInterval: number, pid: number, tid: number, threadName: string,
 *   processName: string, threadSamples: number, timeOrigin: number, truncated: boolean}}
 * Throws a WebprofError (code MalformedProfile or NoProfileThread; InvalidArgument for a timeOrigin
 * that is no time: not finite, negative, past 2^53 µs) saying what is wrong.
 */
export function importGeckoProfile(profile, options = {}) {
  const bytes = profileBytes(profile);
  if (!bytes)
    throw new TypeError('webprof: a Gecko profile is JSON text: a string, Uint8Array or ArrayBuffer');
  const start = numberOption(options.windowStart, -Infinity, 'windowStart');
  const end = numberOption(options.windowEnd, Infinity, 'windowEnd');
  const origin = numberOption(options.timeOrigin, NaN, 'timeOrigin');
  const sessionOptions = {
    sampleInterval: 1,
    maxBufferSize: options.maxBufferSize ?? 0xffffffff,
    timeOrigin: Number.isFinite(origin) ? origin : Number.isFinite(start) ? start : 0,
  };
  const pageUrl = String(options.pageUrl ?? '');
  const { session, info } = runImporter(
    'importGeckoProfile',
    'Gecko profile',
    bytes,
    sessionOptions,
    (m, h, ptr, n) => m.importGeckoProfile(h, ptr, n, pageUrl, start, end, origin),
  );
  return {
    trace: toHeldTrace(session),
    sampleInterval: info.intervalMs,
    pid: info.pid,
    tid: info.tid,
    threadName: info.threadName,
    processName: info.processName,
    threadSamples: info.threadSamples,
    timeOrigin: info.timeOriginMs,
    truncated: info.truncated,
  };
}
