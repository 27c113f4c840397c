// `npm run fuzz` (js/tools/fuzz.mjs) refuses what it would otherwise turn
// into fuzzing nothing and passing: an option it does not know (a `--jobs 2`
// used to become two target names, "--jobs" and "2", matching none) and a
// target name that starts no target of the fuzz build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const tool = fileURLToPath(new URL('../../js/tools/fuzz.mjs', import.meta.url));
const fuzzBuild = fileURLToPath(new URL('../../build/fuzz/tests/fuzz', import.meta.url));
const run = (...args) => spawnSync(process.execPath, [tool, ...args], { encoding: 'utf8' });

test('an unknown option is refused with the usage, before anything runs', () => {
  const r = run('--minutes', '0.01', '--jobs', '2', 'utf8_fuzz');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option --jobs \(usage: npm run fuzz -- --minutes N \[name…\]\)/);
  assert.doesNotMatch(r.stdout, /targets,/);
});

test(
  'a name that starts no target is refused with the targets there are',
  {
    skip: !existsSync(fuzzBuild) && 'no fuzz build (cmake --preset fuzz)',
  },
  () => {
    const r = run('--minutes', '0.01', 'utf8_fuzz', 'no_such_fuzz');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /no target named no_such_fuzz \(targets: .*utf8_fuzz/);
    assert.doesNotMatch(r.stdout, /targets,/);
  },
);
