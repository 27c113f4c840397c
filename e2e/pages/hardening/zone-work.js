// Work an Angular app does through zone.js: promise chains, timers,
// listeners, each checked to run in the zone it was scheduled from. Each step
// is scheduled inside the zone with no async/await there (zone.js cannot
// follow native await; Angular compiles it away). Returns what ran.
window.zoneWork = async function zoneWork() {
  const zone = Zone.current.fork({ name: 'app' });
  const here = () => Zone.current.name;
  const steps = [
    () => Promise.resolve(1).then((v) => `${v}:${here()}`),
    () => new Promise((r) => setTimeout(() => r(`timeout:${here()}`), 5)),
    () =>
      new Promise((r) => {
        const id = setInterval(() => {
          clearInterval(id);
          r(`interval:${here()}`);
        }, 2);
      }),
    () => new Promise((r) => requestAnimationFrame(() => r(`raf:${here()}`))),
    () => new Promise((r) => queueMicrotask(() => r(`microtask:${here()}`))),
    () =>
      new Promise((r) => {
        const t = new EventTarget();
        const l = () => r(`event:${here()}`);
        t.addEventListener('x', l);
        t.dispatchEvent(new Event('x'));
        t.removeEventListener('x', l);
      }),
    () => Promise.reject(new Error('no')).catch((e) => `${e.message}:${here()}`),
    // A native promise (an async function's) through zone's patched then.
    () => (async () => 'native')().then((v) => `${v}:${here()}`),
  ];
  const out = [];
  for (const step of steps) out.push(await zone.run(step));
  // Busy work so the profiler has something to sample.
  let n = 0;
  for (let k = 0; k < 30; k++) {
    await zone.run(() => new Promise((r) => setTimeout(r, 0)));
    const end = performance.now() + 2;
    while (performance.now() < end) n++;
  }
  out.push(n > 0 ? 'busy' : 'idle');
  return out;
};
window.zoneExpected = [
  '1:app',
  'timeout:app',
  'interval:app',
  'raf:app',
  'microtask:app',
  'event:app',
  'no:app',
  'native:app',
  'busy',
];
