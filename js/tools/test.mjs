// `npm test`: every test step, in order of cost. Runs them all, prints which
// failed, exits non-zero if any did. Expects `npm run build` (or
// .ci/setup.sh) to have run. `npm test -- native` runs the steps whose name
// starts with the given words.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const steps = [
  ['format (clang-format, prettier)', 'npm', ['run', '--silent', 'format:check']],
  [
    'types (tsc --strict over the published .d.ts and the README snippets: bundler, node16, nodenext)',
    'node',
    ['tests/types/check.mjs'],
  ],
  [
    'native core (GoogleTest via ctest)',
    'ctest',
    ['--test-dir', 'build/native', '--output-on-failure', '-j2'],
  ],
  [
    'native core under ASan + UBSan (ctest)',
    'ctest',
    ['--test-dir', 'build/sanitize', '--output-on-failure', '-j2'],
  ],
  ['fuzz smoke runs (libFuzzer, ctest)', 'ctest', ['--test-dir', 'build/fuzz', '--output-on-failure']],
  ['glue + Wasm in Node (node --test)', 'node', ['--test', 'tests/js/']],
  ['browser e2e (Playwright, Debian Chromium)', 'npx', ['playwright', 'test']],
  ['browser e2e (puppeteer-core, Firefox ESR)', 'node', ['--test', 'e2e/firefox/']],
  // Skips (each test reported skipped, with the reason) only when WebKitWebDriver or xvfb-run is absent.
  ['browser e2e (WebKitWebDriver, WebKitGTK under xvfb-run)', 'node', ['--test', 'e2e/webkit/']],
];
const only = process.argv.slice(2);
const failed = [];
let ran = 0;
for (const [name, cmd, args] of steps) {
  if (only.length && !only.some((o) => name.startsWith(o))) continue;
  ran++;
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`=== FAILED: ${name} (exit ${r.status ?? r.signal})`);
    failed.push(name);
  }
}
if (failed.length) console.error(`\n=== failed steps: ${failed.join('; ')}`);
console.log(`\nsteps: ${ran - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
