// The built-in framework probes: timers, rAF and event listeners become
// aggregates; removeEventListener still works; uninstall restores all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as p from 'webprof';

await p.ready;

test('timer, rAF and event listener callbacks are aggregated while recording', async () => {
  class Target extends EventTarget {}
  const rafQueue = [];
  const g = {
    setTimeout: globalThis.setTimeout.bind(globalThis),
    setInterval: globalThis.setInterval.bind(globalThis),
    requestAnimationFrame: (cb) => rafQueue.push(cb),
    EventTarget: Target,
  };
  const uninstall = p.installFrameworkProbes(g);
  const target = new Target();
  let calls = 0;
  const listener = () => calls++;
  const objListener = { handleEvent: () => calls++ };
  target.addEventListener('ping', listener);
  target.addEventListener('ping', objListener, { capture: true });
  p.start();
  await new Promise((resolve) => g.setTimeout(resolve, 1));
  let ticks = 0;
  await new Promise((resolve) => {
    const h = g.setInterval(() => {
      if (++ticks === 3) {
        clearInterval(h);
        resolve();
      }
    }, 1);
  });
  g.requestAnimationFrame(() => calls++);
  rafQueue.shift()(16);
  target.dispatchEvent(new Event('ping'));
  target.removeEventListener('ping', listener);
  // (Node 20's own EventTarget ignores a boolean capture on remove: use the object form.)
  target.removeEventListener('ping', objListener, { capture: true });
  target.dispatchEvent(new Event('ping')); // nobody listens any more
  let aggr;
  p.end((a) => (aggr = a));
  uninstall();
  assert.equal(calls, 3);
  assert.equal(aggr.get('task:timeout').count, 1);
  assert.equal(aggr.get('task:interval').count, 3);
  assert.equal(aggr.get('task:raf').count, 1);
  assert.equal(aggr.get('event:ping').count, 2);
  assert.equal(g.requestAnimationFrame.name, 'requestAnimationFrame', 'restored');
  assert.equal(Object.hasOwn(Target.prototype, 'addEventListener'), true);
});

test('callbacks outside a window and string handlers are unaffected', async () => {
  const g = { setTimeout: globalThis.setTimeout.bind(globalThis) };
  const uninstall = p.installFrameworkProbes(g);
  const v = await new Promise((resolve) => g.setTimeout((x) => resolve(x), 1, 'arg'));
  uninstall();
  assert.equal(v, 'arg');
});
