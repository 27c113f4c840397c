// The pages the `webprof record` tests record (e2e/pages/record/), served for
// one test file: the server starts before its first test and closes after its
// last, so every case of the file records from one origin.
import { before, after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from '../../e2e/server.mjs';

const pages = fileURLToPath(new URL('../../e2e/pages/record', import.meta.url));

/**
 * Registers the file's before/after hooks; returns an object filled in
 * before the first test: `base` (the server's http URL) and, with
 * `tmpPrefix`, `dir` (a temporary folder removed after the last test).
 * `setup(served)` runs once both are there: node:test starts a file's
 * top-level before hooks without awaiting one another, so a second hook
 * could not rely on them.
 * @param {string} [tmpPrefix]
 * @param {(served: {base: string, dir: string}) => void} [setup]
 */
export function serveRecordPages(tmpPrefix, setup) {
  const served = { base: '', dir: '' };
  let server = null;
  before(async () => {
    server = await startStaticServer({ port: 0, base: pages });
    served.base = `http://127.0.0.1:${server.address().port}`;
    if (tmpPrefix) served.dir = mkdtempSync(join(tmpdir(), tmpPrefix));
    if (setup) setup(served);
  });
  after(() => {
    if (server) server.close();
    if (served.dir) rmSync(served.dir, { recursive: true, force: true });
  });
  return served;
}
