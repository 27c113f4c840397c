// Probe sites of the polyfill sampler (js/profiler/sampler.mjs): where a sample can
// be taken. Task entry and exit: the callbacks given to setTimeout,
// setInterval, requestAnimationFrame, addEventListener (message events too),
// queueMicrotask and Promise.prototype.then are wrapped so each call probes
// before and after; removeEventListener maps a listener back to its wrapper.
// Explicit: wrap(fn) and instrument(obj). Wrappers are named with the
// sampler's MARKER (`__webprof$…`) so the core removes their frames.
import { probe } from './sampler.mjs';

const g = globalThis;
// The originals, captured before installProbeSites() replaces them.
const orig = {
  setTimeout: g.setTimeout,
  setInterval: g.setInterval,
  requestAnimationFrame: g.requestAnimationFrame,
  queueMicrotask: g.queueMicrotask,
  then: g.Promise && g.Promise.prototype.then,
  addEventListener: g.EventTarget && g.EventTarget.prototype.addEventListener,
  removeEventListener: g.EventTarget && g.EventTarget.prototype.removeEventListener,
};

const wrappers = new WeakMap();

/** Wraps fn so each call is a probe site at entry and exit. */
export function wrap(fn) {
  if (typeof fn !== 'function') throw new TypeError('webprof: wrap() needs a function');
  let w = wrappers.get(fn);
  if (w) return w;
  w = function __webprof$wrap() {
    probe();
    try {
      return new.target ? Reflect.construct(fn, arguments, new.target) : fn.apply(this, arguments);
    } finally {
      probe();
    }
  };
  wrappers.set(fn, w);
  wrappers.set(w, w);
  return w;
}

/**
 * Replaces every own function-valued property of `obj` (for a class, pass
 * its prototype) by a wrapped one. Accessors are left alone. Returns obj.
 */
export function instrument(obj) {
  if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function'))
    throw new TypeError('webprof: instrument() needs an object');
  for (const key of Reflect.ownKeys(obj)) {
    if (key === 'constructor') continue;
    const d = Object.getOwnPropertyDescriptor(obj, key);
    if (!d || typeof d.value !== 'function' || !d.writable) continue;
    Object.defineProperty(obj, key, { ...d, value: wrap(d.value) });
  }
  return obj;
}

function taskWrapper(fn) {
  let w = wrappers.get(fn);
  if (w) return w;
  w = function __webprof$task() {
    probe();
    try {
      return fn.apply(this, arguments);
    } finally {
      probe();
    }
  };
  wrappers.set(fn, w);
  wrappers.set(w, w);
  return w;
}

function listenerWrapper(l) {
  if (typeof l === 'function') return taskWrapper(l);
  if (l === null || typeof l !== 'object') return l;
  let w = wrappers.get(l);
  if (w) return w;
  w = function __webprof$event(e) {
    probe();
    try {
      return l.handleEvent(e);
    } finally {
      probe();
    }
  };
  wrappers.set(l, w);
  return w;
}

let installed = false;
/** Installs the task entry/exit probe sites once (they stay: idle, a probe is a decrement). */
export function installProbeSites() {
  if (installed) return;
  installed = true;
  if (orig.setTimeout)
    g.setTimeout = function setTimeout(cb, ...rest) {
      return orig.setTimeout.call(g, typeof cb === 'function' ? taskWrapper(cb) : cb, ...rest);
    };
  if (orig.setInterval)
    g.setInterval = function setInterval(cb, ...rest) {
      return orig.setInterval.call(g, typeof cb === 'function' ? taskWrapper(cb) : cb, ...rest);
    };
  if (orig.requestAnimationFrame)
    g.requestAnimationFrame = function requestAnimationFrame(cb) {
      return orig.requestAnimationFrame.call(g, typeof cb === 'function' ? taskWrapper(cb) : cb);
    };
  if (orig.queueMicrotask)
    g.queueMicrotask = function queueMicrotask(cb) {
      return orig.queueMicrotask.call(g, typeof cb === 'function' ? taskWrapper(cb) : cb);
    };
  if (orig.then)
    g.Promise.prototype.then = function then(a, b) {
      return orig.then.call(
        this,
        typeof a === 'function' ? taskWrapper(a) : a,
        typeof b === 'function' ? taskWrapper(b) : b,
      );
    };
  if (orig.addEventListener) {
    const proto = g.EventTarget.prototype;
    proto.addEventListener = function addEventListener(type, l, opts) {
      return orig.addEventListener.call(this, type, listenerWrapper(l), opts);
    };
    proto.removeEventListener = function removeEventListener(type, l, opts) {
      const w =
        l !== null && (typeof l === 'function' || typeof l === 'object') ? wrappers.get(l) : undefined;
      return orig.removeEventListener.call(this, type, w || l, opts);
    };
  }
}
