// Manual smoke run of the Profiler polyfill in Firefox ESR (Playwright cannot
// drive Debian's Firefox; see TOOLCHAIN.md). Serves the repo, opens
// e2e/pages/profiler/smoke.html in headless Firefox, prints what the page
// POSTs back (backend, sample counts, frame names, resources) and exits.
// Run: npm run build:js && node e2e/firefox-smoke.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportHook, startStaticServer } from './server.mjs';

const firefox = process.env.WEBPROF_FIREFOX || '/usr/lib/firefox-esr/firefox-esr';
const report = reportHook();
const server = await startStaticServer({ port: 0, hooks: [report.hook] });
const url = `http://127.0.0.1:${server.address().port}/e2e/pages/profiler/smoke.html`;
const profile = mkdtempSync(join(tmpdir(), 'webprof-ff-'));
const browser = spawn(firefox, ['--headless', '--no-remote', '--profile', profile, url], { stdio: 'ignore' });
const timeout = setTimeout(() => {
  console.error('no report from Firefox within 30 s');
  process.exit(1);
}, 30000);
const body = await report.body;
clearTimeout(timeout);
console.log(JSON.stringify(JSON.parse(body), null, 1));
browser.kill();
process.exit(0);
