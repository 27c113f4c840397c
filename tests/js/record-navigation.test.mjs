// `webprof record --script` whose actions navigate: the profile outlives the
// document it started in. Two pages, each with its own hot function; the
// script clicks a link from the first to the second. The result is one
// trace spanning both documents (one time base), with either sampler, and
// no file holds a frame of webprof.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { serveRecordPages } from '../support/record-pages.mjs';
import { webprofCli } from '../support/spawn.mjs';

// What a user writes: wait a little, follow a link, wait again.
const pages = serveRecordPages('webprof-record-nav-', ({ dir }) =>
  writeFileSync(
    join(dir, 'navigate.mjs'),
    `export default async ({ page }) => {
  await page.waitForTimeout(1200);
  await page.click('#next');
  await page.waitForURL('**/nav-second.html');
};
`,
  ),
);

const webprofAsync = (...args) => webprofCli(args);

// Leaf function -> samples, from the .cpuprofile (the format others read).
function leaves(out) {
  const cpu = JSON.parse(readFileSync(join(out, 'profile.cpuprofile'), 'utf8'));
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  const count = new Map();
  for (const id of cpu.samples) {
    const name = byId.get(id).callFrame.functionName;
    count.set(name, (count.get(name) || 0) + 1);
  }
  return { count, cpu };
}

for (const sampler of ['polyfill', 'native']) {
  test(`${sampler}: a --script that navigates gives one profile naming both documents' hot functions`, async () => {
    const out = join(pages.dir, sampler);
    const r = await webprofAsync(
      'record',
      `${pages.base}/nav-first.html`,
      '--script',
      join(pages.dir, 'navigate.mjs'),
      '--seconds',
      '1.2',
      '--out',
      out,
      ...(sampler === 'native' ? ['--native'] : []),
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`samples \\(${sampler} sampler\\)`));

    // summary.txt: both functions, and the two documents on one time base.
    const summary = readFileSync(join(out, 'summary.txt'), 'utf8');
    assert.match(summary, /hotInFirstDocument \(\S+nav-first\.html:\d+\)/, summary);
    assert.match(summary, /hotInSecondDocument \(\S+nav-second\.html:\d+\)/, summary);
    assert.match(summary, /documents \(2\), one time base/);
    const from = [...summary.matchAll(/from\s+([\d.]+) ms\s+(\d+) samples\s+(\S+)/g)];
    assert.equal(from.length, 2, summary);
    assert.equal(Number(from[0][1]), 0);
    assert.ok(from[0][3].endsWith('/nav-first.html') && from[1][3].endsWith('/nav-second.html'));
    // The second document starts after the script's wait in the first.
    assert.ok(Number(from[1][1]) >= 1000, summary);

    // Every format holds both, in time order: the first document's samples
    // come before the second's, and nothing of webprof's.
    const { count, cpu } = leaves(out);
    assert.ok(count.get('hotInFirstDocument') >= 10, JSON.stringify([...count]));
    assert.ok(count.get('hotInSecondDocument') >= 10, JSON.stringify([...count]));
    assert.ok(cpu.timeDeltas.every((d) => d >= 0));
    const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
    const names = cpu.samples.map((id) => byId.get(id).callFrame.functionName);
    assert.ok(names.lastIndexOf('hotInFirstDocument') < names.indexOf('hotInSecondDocument'));
    for (const name of readdirSync(out)) {
      if (statSync(join(out, name)).isDirectory()) continue;
      const bytes = readFileSync(join(out, name));
      const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
      for (const own of ['data:', 'wasm-function', 'js-to-wasm', 'wasm-to-js', '__webprof', '__wp$'])
        assert.ok(!text.includes(own), `${name} holds "${own}"`);
      if (name !== 'summary.txt') {
        assert.ok(text.includes('hotInFirstDocument'), `${name} lacks the first document's function`);
        assert.ok(text.includes('hotInSecondDocument'), `${name} lacks the second document's function`);
      }
    }
  });
}
