// A format added through the export registry in this one file reaches every
// consumer the way a user meets it: exportFormats()/exportTrace(), the files
// `webprof record` writes, the Playwright fixture's attachments. Removed, it
// reaches none of them.
import { test as base, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  withWebprof,
  install,
  ready,
  record,
  exportFormats,
  exportTrace,
  registerExportFormat,
} from 'webprof/playwright';

const test = withWebprof(base);

// The dummy format: the sample count as one line of text.
const dummy = {
  id: 'dummy',
  name: 'Sample count',
  extension: 'txt',
  mimeType: 'text/plain',
  fileName: 'samples.txt',
  write: (input) => new TextEncoder().encode(`samples=${input.profile ? input.profile.samples.length : 0}\n`),
};
const text = (buf) => Buffer.from(buf).toString('utf8');

test('a registered format is exported, written by the CLI and attached by the fixture; then gone', async ({
  page,
  webprof,
  baseURL,
}, testInfo) => {
  await ready;
  const builtins = exportFormats().map((f) => f.id);
  expect(builtins).toEqual(['chrome', 'cpuprofile', 'perfetto', 'pprof']);
  const unregister = registerExportFormat(dummy);
  try {
    expect(exportFormats().map((f) => f.id)).toEqual([...builtins, 'dummy']);
    expect(() => registerExportFormat({ ...dummy })).toThrow(/already exists/);
    const trace = { resources: [], frames: [], stacks: [], samples: [{ timestamp: 1 }, { timestamp: 2 }] };
    expect(text(exportTrace('dummy', { profile: trace }))).toBe('samples=2\n');

    // The Playwright fixture attaches it, with the registry's MIME type.
    await install(page, { dense: true });
    await page.goto('/e2e/pages/record/untouched.html');
    const result = await webprof.profile(async () => {
      await page.click('#go');
      await page.waitForSelector('#done', { state: 'attached' });
    });
    const attachment = testInfo.attachments.find((a) => a.name === 'webprof-1-samples.txt');
    expect(attachment?.contentType).toBe('text/plain');
    expect(text(attachment.body)).toBe(`samples=${result.trace.samples.length}\n`);

    // `webprof record` writes it next to the built-in formats.
    const out = mkdtempSync(join(tmpdir(), 'webprof-registry-'));
    const recorded = await record(
      { url: `${baseURL}/e2e/pages/record/untouched.html`, seconds: 0.5, out, dense: false },
      () => {},
    );
    for (const f of ['trace.json', 'profile.cpuprofile', 'trace.pftrace', 'profile.pb.gz', 'summary.txt'])
      expect(existsSync(join(out, f)), f).toBe(true);
    expect(readFileSync(join(out, 'samples.txt'), 'utf8')).toBe(`samples=${recorded.trace.samples.length}\n`);
  } finally {
    unregister();
  }
  expect(exportFormats().map((f) => f.id)).toEqual(builtins);
  expect(() => exportTrace('dummy', {})).toThrow(/unknown export format "dummy"/);
  const again = await webprof.profile(() => page.waitForTimeout(50));
  expect(Object.keys(again.files)).not.toContain('samples.txt');
  expect(testInfo.attachments.map((a) => a.name)).not.toContain('webprof-2-samples.txt');
});
