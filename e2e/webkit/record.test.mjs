// `webprof record URL --browser webkit` on a page that knows nothing of
// webprof (an inline 40 ms hot loop every 45 ms): the CLI drives WebKit
// through its rewriting proxy (js/node/webkit-record.mjs) and writes the same
// files as in Chromium; the summary names the hot function.
// Run: node --test e2e/webkit/   (needs `npm run build:js` first)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webkitMissing } from '../../js/node/webkit.mjs';
import { startStaticServer } from '../server.mjs';
import { webprofCli } from '../../tests/support/spawn.mjs';

const missing = webkitMissing();
if (missing) console.log(`# WebKit record SKIPPED: ${missing}`);
let server, base;
before(async () => {
  server = await startStaticServer({ port: 0 });
  base = `http://127.0.0.1:${server.address().port}/e2e/pages/record`;
});
after(() => server.close());

const webprof = (...args) => webprofCli(args);

test(
  'record --browser webkit names the hot function of an untouched inline script',
  missing ? { skip: missing } : {},
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'webprof-webkit-'));
    const r = await webprof(
      'record',
      `${base}/hot-inline.html`,
      '--browser',
      'webkit',
      '--seconds',
      '0.8',
      '--out',
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /page error|not rewritten/, r.stderr);
    for (const f of ['trace.json', 'profile.cpuprofile', 'trace.pftrace', 'summary.txt', 'report.html'])
      assert.ok(existsSync(join(out, f)), f);
    // The hot loop runs ~89 % of the time: it leads the summary, at its definition line.
    const top = r.stdout.split('\n').find((l) => /^\s*\d/.test(l));
    assert.match(
      top,
      /hotInline \(http:\/\/127\.0\.0\.1:\d+\/e2e\/pages\/record\/hot-inline\.html:5\)/,
      r.stdout,
    );
    const self = Number(top.trim().split(/%/)[0]);
    assert.ok(self > 35, r.stdout);
    const cpu = JSON.parse(readFileSync(join(out, 'profile.cpuprofile'), 'utf8'));
    assert.ok(cpu.nodes.some((n) => n.callFrame.functionName === 'hotInline'));
  },
);

test('record --browser webkit refuses --native (no native Profiler in WebKit)', async () => {
  const r = await webprof('record', `${base}/hot-inline.html`, '--browser', 'webkit', '--native');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^webprof record: WebKit has no native Profiler/m);
});
