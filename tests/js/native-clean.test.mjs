// `webprof record --native`: Chromium's own Profiler samples the page while
// webprof's Wasm core (a data: URL in the agent) runs in it; the core's
// own-frame rule (src/sampling/stack_sampler.h) must leave none of webprof's
// frames — its core's module URL cut to 1024 characters, wasm-function[N],
// V8's JS<->Wasm bridges, __webprof$ names — in any file written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveRecordPages } from '../support/record-pages.mjs';
import { webprofCli } from '../support/spawn.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pages = serveRecordPages();

const webprofAsync = (...args) => webprofCli(args);

test('a --native recording holds no frame of webprof in any file, each small, the hot function on top', async () => {
  const out = mkdtempSync(join(tmpdir(), 'webprof-native-clean-'));
  try {
    const r = await webprofAsync(
      'record',
      // ?one: one hot function (the page's default runs two, about half each).
      `${pages.base}/untouched.html?one`,
      '--native',
      '--seconds',
      '3',
      '--out',
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /samples \(native sampler\)/);
    const files = readdirSync(out);
    for (const name of ['trace.json', 'profile.cpuprofile', 'trace.pftrace', 'summary.txt'])
      assert.ok(files.includes(name), files.join(','));
    for (const name of files) {
      if (statSync(join(out, name)).isDirectory()) continue;
      const bytes = readFileSync(join(out, name));
      const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
      for (const own of ['data:', 'wasm-function', 'js-to-wasm', 'wasm-to-js', '__webprof'])
        assert.ok(!text.includes(own), `${name} holds "${own}"`);
      assert.ok(statSync(join(out, name)).size < 200_000, `${name}: ${statSync(join(out, name)).size} bytes`);
    }

    // Self share among the samples with a JS stack: the page is idle between
    // its timers, and those samples name no function at all.
    const cpu = JSON.parse(readFileSync(join(out, 'profile.cpuprofile'), 'utf8'));
    const meta = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);
    const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
    const leaves = cpu.samples.map((id) => byId.get(id).callFrame.functionName).filter((n) => !meta.has(n));
    const count = new Map();
    for (const n of leaves) count.set(n, (count.get(n) || 0) + 1);
    const [hot, hits] = [...count].sort((a, b) => b[1] - a[1])[0];
    assert.equal(hot, 'crunchPrimesUntouched', JSON.stringify([...count]));
    assert.ok(hits / leaves.length >= 0.4, `${hot}: ${hits}/${leaves.length}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
