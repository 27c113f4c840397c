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
function uiBase(base) {
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

function timeoutError(origin, ms, isWindow) {
  const causes = [
    `the UI at ${origin} is unreachable (offline, wrong origin, or blocked by a proxy/CSP frame-src)`,
  ];
  if (typeof location !== 'undefined' && location.protocol === 'file:')
    causes.unshift(
      'this page was opened from file:// (serve it over http(s); postMessage cannot work from file://)',
    );
  else causes.push('the page was opened from file:// (serve it over http(s))');
  if (isWindow) {
    causes.push(
      'this page sends Cross-Origin-Opener-Policy: same-origin, which cuts the link to the opened tab',
    );
    causes.push('a popup blocker closed the new tab');
  } else {
    causes.push('the page or the UI forbids framing (X-Frame-Options / frame-ancestors)');
  }
  const err = new Error(
    `webprof: the Perfetto UI did not answer PING within ${ms} ms. Likely causes: ${causes.join('; ')}.`,
  );
  err.name = 'PerfettoTimeoutError';
  return err;
}

function asArrayBuffer(buffer) {
  if (buffer instanceof ArrayBuffer) return buffer;
  if (ArrayBuffer.isView(buffer))
    return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
  throw new TypeError('webprof: openInPerfetto needs the trace as an ArrayBuffer (or a typed-array view)');
}

/**
 * Opens `buffer` in the Perfetto UI. Options:
 *  title (string, required), one of container (element to put a new iframe
 *  in) | iframe (an existing <iframe>, reused) | newWindow: true, origin
 *  (default https://ui.perfetto.dev; any self-hosted UI base URL),
 *  keepApiOpen, timeoutMs (default 15000), pingIntervalMs (50..250, default
 *  100), urlParams (see perfettoUrl), fileName, url.
 * The ArrayBuffer is transferred (detached here). Resolves to a handle.
 */
export function openInPerfetto(buffer, options = {}) {
  const data = asArrayBuffer(buffer);
  if (data.byteLength === 0)
    return Promise.reject(new TypeError('webprof: the trace is empty (the UI rejects empty buffers)'));
  const { title, container, iframe, newWindow, keepApiOpen = false, urlParams = {} } = options;
  if (typeof title !== 'string')
    return Promise.reject(new TypeError('webprof: openInPerfetto needs a string title'));
  const base = options.origin ?? PERFETTO_ORIGIN;
  let origin;
  try {
    origin = uiBase(base).origin;
  } catch (e) {
    return Promise.reject(e);
  }
  const timeoutMs = options.timeoutMs ?? 15000;
  const pingMs = Math.min(250, Math.max(50, options.pingIntervalMs ?? 100));
  const modes = [container, iframe, newWindow].filter(Boolean).length;
  if (modes !== 1)
    return Promise.reject(new TypeError('webprof: pass exactly one of container, iframe or newWindow'));

  const src = perfettoUrl(newWindow ? urlParams : { mode: 'embedded', ...urlParams }, base);
  let frame = iframe || null;
  let target;
  if (newWindow) {
    // No 'noopener': the UI accepts messages only from its opener.
    target = window.open(src, '_blank');
    if (!target)
      return Promise.reject(
        new Error('webprof: the browser blocked opening the Perfetto UI tab (popup blocker)'),
      );
  } else {
    if (!frame) {
      frame = document.createElement('iframe');
      frame.style.cssText = 'width:100%;height:100%;border:0';
      frame.setAttribute('title', 'Perfetto UI');
      container.appendChild(frame);
    }
    if (!frame.getAttribute('src')) frame.src = src;
    target = frame.contentWindow;
  }

  return new Promise((resolve, reject) => {
    let timer = 0;
    let ping = 0;
    const finish = () => {
      clearInterval(ping);
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
    };
    const targetWindow = () => (frame ? frame.contentWindow : target);
    function onMessage(event) {
      if (event.data !== 'PONG' || event.source !== targetWindow() || event.origin !== origin) return;
      finish();
      const msg = { buffer: data, title: sanitizePerfettoText(title) };
      if (options.url !== undefined) msg.url = sanitizePerfettoText(options.url);
      if (options.fileName !== undefined) msg.fileName = sanitizePerfettoText(options.fileName);
      if (keepApiOpen) msg.keepApiOpen = true;
      event.source.postMessage({ perfetto: msg }, origin, [data]);
      resolve(new PerfettoHandle(targetWindow, origin, keepApiOpen, frame));
    }
    window.addEventListener('message', onMessage);
    const sendPing = () => {
      const w = targetWindow();
      // Until the frame has navigated, its origin differs and the browser
      // drops the message for us: that is why we keep pinging.
      if (w) w.postMessage('PING', origin);
    };
    sendPing();
    ping = setInterval(sendPing, pingMs);
    timer = setTimeout(() => {
      finish();
      reject(timeoutError(origin, timeoutMs, Boolean(newWindow)));
    }, timeoutMs);
  });
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
