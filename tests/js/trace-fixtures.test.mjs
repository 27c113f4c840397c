// Outputs on the W3C trace fixtures stay byte-identical: each fixture
// exported as given, imported (importTrace, as Chromium's native backend
// does) and the import exported, against goldens in
// tests/fixtures/traces/golden/ (first written by the JS importer that
// preceded the core's one loader, so they pin its numbering: first use,
// own frames dropped, unsampled stacks left out). A changed golden is a
// changed output: regenerate one only knowingly (UPDATE_GOLDEN=1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as webprof from 'webprof';

await webprof.ready;
await webprof.loadExporters(); // exports without a Profiler's stop()
const dir = new URL('../fixtures/traces/', import.meta.url);
const update = process.env.UPDATE_GOLDEN === '1';

function same(bytes, name) {
  const file = new URL(`golden/${name}`, dir);
  if (update) writeFileSync(file, bytes);
  assert.ok(Buffer.from(bytes).equals(readFileSync(file)), `${name} differs from its golden`);
}

for (const fixture of ['chromium156-native', 'handmade-native']) {
  test(`${fixture}: import and exports are byte-identical to the goldens`, () => {
    const native = JSON.parse(readFileSync(new URL(`${fixture}.json`, dir), 'utf8'));
    const imported = webprof.importTrace(native, 10);
    same(new TextEncoder().encode(JSON.stringify(imported, null, 1) + '\n'), `${fixture}.imported.w3c.json`);
    for (const f of webprof.exportFormats()) {
      same(
        new Uint8Array(webprof.exportTrace(f.id, { profile: native })),
        `${fixture}.as-given.${f.fileName}`,
      );
      same(
        new Uint8Array(webprof.exportTrace(f.id, { profile: imported })),
        `${fixture}.imported.${f.fileName}`,
      );
    }
  });
}
