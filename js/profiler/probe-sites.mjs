// Probe sites of the polyfill sampler (js/profiler/sampler.mjs): where a sample can
// be taken. Task entry and exit: the callbacks given to setTimeout,
// setInterval, requestAnimationFrame, addEventListener (message events too),
// queueMicrotask and Promise.prototype.then are wrapped so each call probes
// before and after; removeEventListener maps a listener back to its wrapper.
// Explicit: wrap(fn) and instrument(obj). Wrappers are named with the
// sampler's MARKER (`__webprof$…`) so the core removes their frames.
//
// Living with pages that patch the same methods (zone.js, analytics, test
// fakes): a platform wrapper is built when a polyfill session starts, around
// whatever the method is *then* (the page's patch, if any), and calls that —
// never a copy taken when webprof loaded, which would drop a patch made in
// between (zone.js's Promise.prototype.then on ZoneAwarePromise: the native
// then on a foreign receiver throws "incompatible receiver"). A patch made
// later wraps ours and calls it: the chain holds either way. When the last
// session stops, a wrapper still on top is taken out (the page's method is
// back, identity and all); one the page has wrapped since stays in its chain
// and is transparent (it hands the callback on untouched) until a session
// runs again — it is reused then, never stacked twice. The EventTarget pair
// stays once installed: a listener added while wrapped must still be found
// by removeEventListener later.
import { onSessionsChanged, probe } from './sampler.mjs';

const g = globalThis;
// The engine's own Promise.prototype: async functions and platform APIs
// return these whatever the page makes of `window.Promise` later.
const nativePromiseProto = g.Promise && g.Promise.prototype;

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

let active = false;
const sites = [];

// One patched method: `make(delegate)` builds the wrapper around what the
// method is when installed. `sticky` sites are never taken out.
class Site {
  constructor(owner, key, make, sticky = false) {
    this.owner = owner;
    this.key = key;
    this.make = make;
    this.sticky = sticky;
    this.live = null; // our wrapper, while it is in the page's chain
    this.delegate = null; // what it calls
  }
  install() {
    if (this.live) return; // in place, or wrapped by the page since: reused
    const cur = this.owner[this.key];
    if (typeof cur !== 'function') return;
    const d = Object.getOwnPropertyDescriptor(this.owner, this.key);
    if (d && !d.writable && !d.configurable) return; // frozen by the page: left alone
    this.delegate = cur;
    this.live = this.make(cur);
    Object.defineProperty(this.live, 'name', { value: cur.name, configurable: true });
    Object.defineProperty(this.live, 'length', { value: cur.length, configurable: true });
    set(this.owner, this.key, d, this.live);
  }
  uninstall() {
    if (this.sticky || !this.live) return;
    if (this.owner[this.key] !== this.live) return; // the page's patch calls it: transparent
    set(this.owner, this.key, Object.getOwnPropertyDescriptor(this.owner, this.key), this.delegate);
    this.live = null;
    this.delegate = null;
  }
}

function set(owner, key, d, value) {
  if (d && !('value' in d)) return; // an accessor: not ours to replace
  Object.defineProperty(owner, key, d ? { ...d, value } : { value, writable: true, configurable: true });
}

const cb = (f) => (active && typeof f === 'function' ? taskWrapper(f) : f);

function timerSite(key) {
  return new Site(
    g,
    key,
    (d) =>
      // Not arrows: `this` is whatever the page calls them on.
      function (f, ...rest) {
        return d.call(this === undefined ? g : this, cb(f), ...rest);
      },
  );
}

function thenSite(proto) {
  return new Site(
    proto,
    'then',
    (d) =>
      function then(a, b) {
        return d.call(this, cb(a), cb(b));
      },
  );
}

function eventSites(proto) {
  return [
    new Site(
      proto,
      'addEventListener',
      (d) =>
        function addEventListener(type, l, opts) {
          return d.call(this, type, listenerWrapper(l), opts);
        },
      true,
    ),
    new Site(
      proto,
      'removeEventListener',
      (d) =>
        function removeEventListener(type, l, opts) {
          const w =
            l !== null && (typeof l === 'function' || typeof l === 'object') ? wrappers.get(l) : undefined;
          // A listener added before the pair was installed is registered as itself.
          if (w && w !== l) d.call(this, type, w, opts);
          return d.call(this, type, l, opts);
        },
      true,
    ),
  ];
}

function sitesNow() {
  if (!sites.length) {
    for (const k of ['setTimeout', 'setInterval', 'requestAnimationFrame', 'queueMicrotask'])
      sites.push(timerSite(k));
    if (nativePromiseProto) sites.push(thenSite(nativePromiseProto));
    if (g.EventTarget) sites.push(...eventSites(g.EventTarget.prototype));
  }
  // A page Promise (zone.js's ZoneAwarePromise) has its own then.
  const P = g.Promise;
  if (typeof P === 'function' && P.prototype && P.prototype !== nativePromiseProto) {
    if (!sites.some((s) => s.owner === P.prototype)) sites.push(thenSite(P.prototype));
  }
  return sites;
}

/**
 * Installs the task entry/exit probe sites around the current methods (a
 * polyfill session is starting); they come out again when none runs.
 */
export function installProbeSites() {
  active = true;
  for (const s of sitesNow()) {
    try {
      s.install();
    } catch {
      /* a method the page locked: no probe site there */
    }
  }
}

onSessionsChanged((interval, count) => {
  if (count > 0 || !active) return;
  active = false;
  for (const s of sites) {
    try {
      s.uninstall();
    } catch {
      /* left in place, transparent */
    }
  }
});
