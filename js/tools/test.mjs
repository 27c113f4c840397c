// `npm test`: every test, in order of cost. Stops at the first failing step
// and exits non-zero. Expects `npm run build` (or .ci/setup.sh) to have run.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const steps = [
  ['format (clang-format, prettier)', 'npm', ['run', '--silent', 'format:check']],
  [
    'native core (GoogleTest via ctest)',
    'ctest',
    ['--test-dir', 'build/native', '--output-on-failure', '-j2'],
  ],
  ['glue + Wasm in Node (node --test)', 'node', ['--test', 'tests/js/']],
  ['browser e2e (Playwright, Debian Chromium)', 'npx', ['playwright', 'test']],
  ['browser e2e (puppeteer-core, Firefox ESR)', 'node', ['--test', 'e2e/firefox/']],
];
const only = process.argv.slice(2);
for (const [name, cmd, args] of steps) {
  if (only.length && !only.some((o) => name.startsWith(o))) continue;
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\n=== FAILED: ${name} (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}
console.log('\n=== all test steps passed');
