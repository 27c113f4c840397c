// Built-in `framework` probes for the browser runtime: task-level spans so a
// user sees where time goes before writing a single probe.
//
//   task:timeout / task:interval   each setTimeout / setInterval callback
//   task:raf                       each requestAnimationFrame callback
//   event:<type>                   each listener added by addEventListener
//   longtask                       each PerformanceObserver 'longtask' entry
//                                  (aggregate + trace with its attribution)
//
// Callbacks are wrapped when they are registered (a closure per timer, only
// in builds with the framework group on); the wrapper costs one boolean check
// when no window is recording. Install inside `if (__webprof_perf_framework__)`
// so builds without the group drop this module. install() returns uninstall(),
// which restores every patched function.
import { aggrStart, aggrEnd, recordAggr, recordTrace } from './probes.mjs';

function wrap(name, fn) {
  return function webprofTask(...args) {
    const id = aggrStart(name);
    try {
      return fn.apply(this, args);
    } finally {
      aggrEnd(id);
    }
  };
}

function patchTimer(g, key, name, undo) {
  const orig = g[key];
  if (typeof orig !== 'function') return;
  g[key] = function (handler, ...rest) {
    // String handlers (eval) are left alone.
    return orig.call(this, typeof handler === 'function' ? wrap(name, handler) : handler, ...rest);
  };
  undo.push(() => {
    g[key] = orig;
  });
}

function patchEvents(EventTargetClass, undo) {
  if (!EventTargetClass || !EventTargetClass.prototype) return;
  const proto = EventTargetClass.prototype;
  const add = proto.addEventListener;
  const remove = proto.removeEventListener;
  // listener -> Map(type + capture -> wrapper), so removeEventListener finds
  // the wrapper it must pass on; weak so listeners are not kept alive.
  const wrappers = new WeakMap();
  const keyOf = (type, options) =>
    `${type}\u0000${typeof options === 'boolean' ? options : !!(options && options.capture)}`;
  proto.addEventListener = function (type, listener, options) {
    if (listener === null || (typeof listener !== 'function' && typeof listener !== 'object')) {
      return add.call(this, type, listener, options);
    }
    let byKey = wrappers.get(listener);
    if (!byKey) wrappers.set(listener, (byKey = new Map()));
    const key = keyOf(type, options);
    let w = byKey.get(key);
    if (!w) {
      const name = `event:${type}`;
      w = function (event) {
        const id = aggrStart(name);
        try {
          return typeof listener === 'function'
            ? listener.call(this, event)
            : listener.handleEvent.call(listener, event);
        } finally {
          aggrEnd(id);
        }
      };
      byKey.set(key, w);
    }
    return add.call(this, type, w, options);
  };
  proto.removeEventListener = function (type, listener, options) {
    const byKey = listener && wrappers.get(listener);
    const w = byKey && byKey.get(keyOf(type, options));
    return remove.call(this, type, w || listener, options);
  };
  undo.push(() => {
    proto.addEventListener = add;
    proto.removeEventListener = remove;
  });
}

function observeLongTasks(g, undo) {
  const PO = g.PerformanceObserver;
  const supported =
    PO && Array.isArray(PO.supportedEntryTypes) && PO.supportedEntryTypes.includes('longtask');
  if (!supported) return false;
  const observer = new PO((list) => {
    for (const e of list.getEntries()) {
      recordAggr('longtask', e.startTime, e.startTime + e.duration);
      const a = e.attribution && e.attribution[0];
      recordTrace(
        'longtask',
        e.startTime,
        e.duration,
        a ? { name: a.name, container: a.containerType } : undefined,
      );
    }
  });
  observer.observe({ type: 'longtask', buffered: false });
  undo.push(() => observer.disconnect());
  return true;
}

/**
 * Installs the framework probes on `g` (default globalThis).
 * @returns {() => void} uninstall
 */
export function installFrameworkProbes(g = globalThis) {
  const undo = [];
  patchTimer(g, 'setTimeout', 'task:timeout', undo);
  patchTimer(g, 'setInterval', 'task:interval', undo);
  patchTimer(g, 'requestAnimationFrame', 'task:raf', undo);
  patchEvents(g.EventTarget, undo);
  observeLongTasks(g, undo);
  return function uninstall() {
    while (undo.length) undo.pop()();
  };
}
