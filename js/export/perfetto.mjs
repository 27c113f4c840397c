// Opening a trace in the Perfetto UI (ui.perfetto.dev or a self-hosted
// build) through its postMessage API, per the embedding reference.
//
// The channel is not buffered: a message sent before the UI has registered
// its listener (and before its document is complete) is lost. So the host
// PINGs repeatedly and sends the trace only after the first 'PONG' from the
// exact window it opened (and from the UI's origin). The UI never reports
// "loaded" or "error"; a missing PONG is the only failure we can see, and it
// becomes an Error naming the usual causes. Without keepApiOpen the UI stops
// listening after the first trace, so control messages need keepApiOpen.
// Anything else webprof posts on the channel carries perfettoIgnore: true.

import { toolsJs, toolsJsLoaded } from '../core/tools.mjs';

export const PERFETTO_ORIGIN = 'https://ui.perfetto.dev';

/** The UI's own sanitisation of title/fileName/url, applied before sending. */
export function sanitizePerfettoText(text) {
  return String(text).replace(/[^A-Za-z0-9.\-_#:/?=&;%+$ ]/g, ' ');
}

const URL_PARAMS = [
  'url',
  'local_cache_key',
  'ts',
  'dur',
  'pid',
  'tid',
  'visStart',
  'visEnd',
  'query',
  'startupCommands',
  'enablePlugins',
  'mode',
  'hideSidebar',
];

/**
 * The UI's URL with the documented parameters:
 * {url, local_cache_key, ts, dur (ns), pid, tid, visStart, visEnd (ns), query,
 *  startupCommands (array/object -> JSON), enablePlugins (array -> comma list),
 *  mode: 'embedded', hideSidebar: true}.
 * `base` is the UI origin or the base URL of a self-hosted build.
 * Values are percent-encoded (so '+' survives; the UI reads '+' as a space).
 */
export function perfettoUrl(params = {}, base = PERFETTO_ORIGIN) {
  const parts = [];
  for (const [key, raw] of Object.entries(params)) {
    if (raw === undefined || raw === null || raw === false) continue;
    if (!URL_PARAMS.includes(key)) throw new TypeError(`webprof: unknown Perfetto URL parameter '${key}'`);
    let value = raw;
    if (key === 'startupCommands' && typeof raw !== 'string') value = JSON.stringify(raw);
    else if (key === 'enablePlugins' && Array.isArray(raw)) value = raw.join(',');
    else if (key === 'url') value = sanitizePerfettoText(raw);
    else if (key === 'hideSidebar' && raw === true) value = 'true';
    else if (key === 'mode' && raw !== 'embedded')
      throw new TypeError("webprof: Perfetto 'mode' can only be 'embedded'");
    else if (['ts', 'dur', 'pid', 'tid', 'visStart', 'visEnd'].includes(key) && !/^-?\d+$/.test(String(raw)))
      throw new TypeError(`webprof: Perfetto '${key}' must be an integer (ns for times), got ${raw}`);
    parts.push(`${key}=${encodeURIComponent(String(value))}`);
  }
  const u = uiBase(base);
  // The UI routes on the fragment: #!/?params (a self-hosted base may carry
  // a path or query of its own, which is kept).
  u.hash = `!/${parts.length ? '?' + parts.join('&') : ''}`;
  return u.href;
}

// The UI's base URL: absolute http(s) only. Anything else (javascript:,
// data:, blob:, file:) is refused before a window or frame is given it —
// a javascript: URL there would run in the page.
export function uiBase(base) {
  let u = null;
  try {
    u = new URL(String(base));
  } catch {
    /* below */
  }
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:'))
    throw new TypeError(
      `webprof: Perfetto origin must be an absolute http(s) URL, got ${String(base).slice(0, 100)}`,
    );
  return u;
}

/**
 * Opens `buffer` in the Perfetto UI (js/export/perfetto-open.mjs, part of the
 * tools module's JS: after an export it is loaded, and the call is made at
 * once; before, it loads first). Resolves to a PerfettoHandle.
 */
export function openInPerfetto(buffer, options = {}) {
  const js = toolsJsLoaded();
  if (js) return js.openInPerfetto(buffer, options);
  return toolsJs().then((m) => m.openInPerfetto(buffer, options));
}

/** Control of an opened trace (needs keepApiOpen: the UI stops listening otherwise). */
export class PerfettoHandle {
  constructor(targetWindow, origin, keepApiOpen, iframe) {
    this._target = targetWindow;
    this.origin = origin;
    this.keepApiOpen = keepApiOpen;
    this.iframe = iframe;
  }
  get window() {
    return this._target();
  }
  _control(fields) {
    if (!this.keepApiOpen)
      throw new Error(
        'webprof: the Perfetto UI stopped listening after the trace; open it with keepApiOpen: true to control it',
      );
    this._target().postMessage({ perfetto: fields }, this.origin);
  }
  /** Visible range in absolute trace seconds (the UI only narrows it). */
  setVisibleRange(timeStartSec, timeEndSec) {
    if (!Number.isFinite(timeStartSec) || !Number.isFinite(timeEndSec) || timeEndSec < timeStartSec)
      throw new RangeError('webprof: setVisibleRange needs finite seconds with start <= end');
    this._control({ timeStart: timeStartSec, timeEnd: timeEndSec });
  }
  /**
   * Selects a slice by id, as the embedding reference documents. Upstream
   * Perfetto ignores this message (it selects by ts+dur URL parameters);
   * sending it is harmless.
   */
  selectSlice(sliceId) {
    if (!Number.isInteger(sliceId) || sliceId < 0)
      throw new RangeError('webprof: sliceId must be a non-negative integer');
    this._control({ sliceId });
  }
  /** Other traffic on the channel: marked perfettoIgnore so the UI drops it. */
  post(message) {
    this._target().postMessage({ ...message, perfettoIgnore: true }, this.origin);
  }
}
