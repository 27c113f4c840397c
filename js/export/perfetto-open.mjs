// Opening a trace in the Perfetto UI: the channel itself (js/export/perfetto.mjs
// has the URL, the handle and why the channel works this way). Part of the
// tools module's JS (js/tools-js.mjs): a page loads it when it exports.
import { PERFETTO_ORIGIN, PerfettoHandle, perfettoUrl, sanitizePerfettoText, uiBase } from './perfetto.mjs';
import {
  platformAddEventListener,
  platformClearTimeout,
  platformRemoveEventListener,
  platformSetTimeout,
} from '../core/platform.mjs';

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

  // The handshake's timers and listener are the platform's as webprof
  // loaded it: a session still running wraps the page's (probe sites), and
  // zone.js would run every ping in the page's zone (a change detection per
  // ping for up to timeoutMs).
  return new Promise((resolve, reject) => {
    let timer = 0;
    let ping = 0;
    let done = false;
    const finish = () => {
      done = true;
      platformClearTimeout(ping);
      platformClearTimeout(timer);
      platformRemoveEventListener(window, 'message', onMessage);
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
    platformAddEventListener(window, 'message', onMessage);
    const sendPing = () => {
      if (done) return;
      const w = targetWindow();
      // Until the frame has navigated, its origin differs and the browser
      // drops the message for us: that is why we keep pinging.
      if (w) w.postMessage('PING', origin);
      ping = platformSetTimeout(sendPing, pingMs);
    };
    sendPing();
    timer = platformSetTimeout(() => {
      finish();
      reject(timeoutError(origin, timeoutMs, Boolean(newWindow)));
    }, timeoutMs);
  });
}
