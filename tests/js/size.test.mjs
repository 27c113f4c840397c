// Size budgets (gzip -9) for what a page loads, from js/tools/size.mjs (the
// same numbers `npm run size` prints for docs/BENCHMARKS.md). These hold the
// sizes measured on 2026-12-01 plus ~10 % (other work lands daily), so real growth fails here; the issue's
// targets (drop-in 60 KB, probes alone 25 KB) are not met: docs/BENCHMARKS.md
// "Package sizes" says what reaching them would take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { distFiles, usageSizes } from '../../js/tools/size.mjs';

const KB = 1024;
// +20 KB on 2026-12-01 for issue 19 (measured 155.2 / 156.9 / 138.6 KB with it): the pprof writer and
// its gzip (≈ 5 KB) and source maps in the page (decoder, symbolicator, binding: ≈ 15 KB).
// +10 KB the same day for issue 16 (measured 169.3 / 171.0 / 152.7 KB): the Gecko profile importer and
// its JSON cursor ride in the one .wasm although only Node uses them — a Node-only core (or a core
// split by use, docs/BENCHMARKS.md "Package sizes") would take them and pprof out of the page.
const BUDGET = {
  'drop-in: webprof.js + .wasm': 180 * KB,
  'ES module as shipped: webprof.mjs + chunk + .wasm': 180 * KB,
  'probes alone, flags on: app bundle (esbuild, minified) + .wasm': 165 * KB,
  'probes alone, flags off: app bundle (no .wasm)': 1 * KB,
};

test('what a page loads stays within its gzip budget', async () => {
  const sizes = await usageSizes(distFiles());
  for (const [what, budget] of Object.entries(BUDGET)) {
    assert.ok(sizes[what], `no measurement named "${what}"`);
    assert.ok(
      sizes[what].gzip <= budget,
      `${what}: ${(sizes[what].gzip / KB).toFixed(1)} KB gzip > budget ${(budget / KB).toFixed(0)} KB`,
    );
  }
});

test('the browser files are minified (terser: a few lines, not one per statement)', () => {
  const dist = new URL('../../dist/', import.meta.url);
  const names = readdirSync(dist).filter((f) => f === 'webprof.js' || /^webprof(-chunk-\w+)?\.mjs$/.test(f));
  assert.equal(names.length, 3, names.join(', '));
  for (const f of names) {
    const lines = readFileSync(new URL(f, dist), 'utf8').split('\n').length;
    assert.ok(lines < 50, `${f}: ${lines} lines`);
  }
});

test("the page's core carries no Node-only code: importers are linked only into the Node-side core", () => {
  const dist = new URL('../../dist/', import.meta.url);
  const page = readFileSync(new URL('webprof-core.wasm', dist));
  const node = readFileSync(new URL('webprof-core-node.wasm', dist));
  // The binding's registered name and the Gecko importer's own error text.
  for (const text of ['importGeckoProfile', 'content-process main threads (GeckoMain)']) {
    assert.ok(node.includes(text), `the Node-side core lacks "${text}"`);
    assert.ok(!page.includes(text), `the page's core carries "${text}"`);
  }
});
