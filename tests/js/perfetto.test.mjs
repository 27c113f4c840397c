// perfettoUrl and sanitising (the postMessage flow itself needs a browser:
// e2e/perfetto.spec.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { perfettoUrl, sanitizePerfettoText, openInPerfetto, PERFETTO_ORIGIN } from 'webprof';

test('perfettoUrl builds the documented parameters', () => {
  assert.equal(perfettoUrl(), `${PERFETTO_ORIGIN}/#!/`);
  const u = perfettoUrl({
    mode: 'embedded',
    hideSidebar: true,
    url: 'https://x.test/t.pftrace',
    ts: 1000,
    dur: '2000',
    pid: 1,
    tid: 2,
    query: 'select * from slice where name = "a+b"',
    startupCommands: [{ id: 'dev.perfetto.PinTracksByRegex', args: ['.*CPU [0-3].*'] }],
    enablePlugins: ['a.b', 'c.d'],
    local_cache_key: 'k1',
  });
  const hash = new URL(u).hash;
  assert.ok(hash.startsWith('#!/?'));
  const p = new URLSearchParams(hash.slice(4));
  assert.equal(p.get('mode'), 'embedded');
  assert.equal(p.get('hideSidebar'), 'true');
  assert.equal(p.get('url'), 'https://x.test/t.pftrace');
  assert.equal(p.get('query'), 'select * from slice where name = "a+b"'); // '+' survives
  assert.deepEqual(JSON.parse(p.get('startupCommands')), [
    { id: 'dev.perfetto.PinTracksByRegex', args: ['.*CPU [0-3].*'] },
  ]);
  assert.equal(p.get('enablePlugins'), 'a.b,c.d');
  assert.equal(p.get('ts'), '1000');
  assert.equal(p.get('local_cache_key'), 'k1');
});

test('perfettoUrl keeps a self-hosted base path and rejects bad values', () => {
  assert.equal(
    perfettoUrl({ pid: 3 }, 'http://127.0.0.1:9/ui/index.html?x'),
    'http://127.0.0.1:9/ui/index.html?x#!/?pid=3',
  );
  assert.throws(() => perfettoUrl({ ts: 1.5 }), /integer/);
  assert.throws(() => perfettoUrl({ nope: 1 }), /unknown Perfetto URL parameter/);
  assert.throws(() => perfettoUrl({ mode: 'full' }), /embedded/);
  assert.throws(() => perfettoUrl({}, 'not a url'), TypeError);
});

test('sanitizePerfettoText keeps only the UI character set', () => {
  assert.equal(sanitizePerfettoText('a<b>"c"\n😀 ok-._#:/?=&;%+$'), 'a b  c     ok-._#:/?=&;%+$');
});

test('openInPerfetto rejects bad arguments before touching any window', async () => {
  await assert.rejects(openInPerfetto(new ArrayBuffer(0), { title: 't', newWindow: true }), /empty/);
  await assert.rejects(openInPerfetto(new ArrayBuffer(4), { newWindow: true }), /string title/);
  await assert.rejects(openInPerfetto(new ArrayBuffer(4), { title: 't' }), /exactly one of/);
  assert.throws(() => openInPerfetto('nope', { title: 't' }), TypeError);
});

test("openInPerfetto's handshake runs on the platform as webprof loaded it, not the page's timers", async () => {
  // What a running polyfill session (probe sites) or zone.js does to the
  // page's timers and listeners after webprof loaded.
  const wrapped = [];
  const saved = { setTimeout, setInterval, clearTimeout, clearInterval };
  for (const name of Object.keys(saved))
    globalThis[name] = (...args) => {
      wrapped.push(name);
      return saved[name](...args);
    };
  const win = new EventTarget();
  win.addEventListener = () => wrapped.push('addEventListener');
  win.removeEventListener = () => wrapped.push('removeEventListener');
  const received = [];
  const origin = 'https://ui.test';
  const tab = {
    postMessage(msg) {
      received.push(msg);
      // Answer the second PING, as a UI that is still loading would.
      if (received.filter((m) => m === 'PING').length === 2) {
        const pong = Object.assign(new Event('message'), { data: 'PONG', source: tab, origin });
        win.dispatchEvent(pong);
      }
    },
  };
  win.open = () => tab;
  globalThis.window = win;
  try {
    const handle = await openInPerfetto(new Uint8Array([1, 2, 3]).buffer, {
      title: 'ok',
      newWindow: true,
      origin,
      pingIntervalMs: 50,
    });
    assert.ok(handle);
    assert.deepEqual(received.slice(0, 2), ['PING', 'PING']);
    assert.equal(received[2].perfetto.title, 'ok');
    assert.equal(received[2].perfetto.buffer.byteLength, 3);
    // No PING after the answer: the ping timer stopped with the handshake.
    await new Promise((r) => saved.setTimeout(r, 150));
    assert.equal(received.length, 3);
    assert.deepEqual(wrapped, []);
  } finally {
    Object.assign(globalThis, saved);
    delete globalThis.window;
  }
});
