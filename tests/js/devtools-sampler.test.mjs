// `webprof record --native --interval 0.1`: below the native Profiler's
// 10 ms floor, Chromium's DevTools sampler (V8's CPU profiler over CDP,
// imported by the core's .cpuprofile importer) records the untouched page.
// The hot function keeps its share with far more samples than at 10 ms,
// the results name the sampler and its interval, and no file holds a frame
// of webprof (the page gets no agent at all).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { serveRecordPages } from '../support/record-pages.mjs';
import { webprofCli } from '../support/spawn.mjs';

const pages = serveRecordPages('webprof-devtools-');

function record(interval) {
  const out = join(pages.dir, `every-${interval}`);
  const args = ['record', `${pages.base}/hot-inline.html`, '--native', '--interval', String(interval)];
  return webprofCli([...args, '--seconds', '2', '--out', out]).then((r) => ({ ...r, out }));
}

// The hot function's self share among all samples, from summary.txt.
function hot(out) {
  const summary = readFileSync(join(out, 'summary.txt'), 'utf8');
  const samples = Number(/^samples: (\d+)/.exec(summary)[1]);
  const row = /^\s*([\d.]+)%\s+[\d.]+%\s+hotInline \(\S+hot-inline\.html:\d+\)$/m.exec(summary);
  return { summary, samples, self: row ? Number(row[1]) : 0 };
}

test('--native --interval 0.1: the DevTools sampler, far more samples than at 10 ms, the hot function on top', async () => {
  const fine = await record(0.1);
  assert.equal(fine.status, 0, fine.stderr);
  assert.match(fine.stderr, /samples \(devtools sampler\)/);
  const coarse = await record(10);
  assert.equal(coarse.status, 0, coarse.stderr);
  assert.match(coarse.stderr, /samples \(native sampler\)/);

  const f = hot(fine.out);
  const c = hot(coarse.out);
  assert.match(f.summary, /sampler: Chromium DevTools, every 0\.1 ms/);
  assert.match(c.summary, /sampler: Chromium native, every 10 ms/);
  assert.ok(f.self >= 40, f.summary);
  // 2 s at 0.1 ms asked: thousands of samples (V8 takes them as often as it
  // can: ~0.4 ms apart here), against ~200 at 10 ms.
  assert.ok(f.samples >= 10 * c.samples, `${f.samples} vs ${c.samples}`);

  const trace = JSON.parse(readFileSync(join(fine.out, 'trace.json'), 'utf8'));
  const names = trace.traceEvents.filter((e) => e.ph === 'M').map((e) => e.args && e.args.name);
  assert.ok(names.includes('main (Chromium DevTools sampler, 0.1 ms)'), JSON.stringify(names));
  for (const name of readdirSync(fine.out)) {
    if (statSync(join(fine.out, name)).isDirectory()) continue;
    const bytes = readFileSync(join(fine.out, name));
    const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
    for (const own of ['data:', 'wasm-function', 'js-to-wasm', 'wasm-to-js', '__webprof', '__wp$'])
      assert.ok(!text.includes(own), `${name} holds "${own}"`);
  }
});
