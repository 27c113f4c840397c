// `npm run fuzz` (js/tools/fuzz.mjs) refuses what it would otherwise turn
// into fuzzing nothing and passing: an option it does not know (a `--jobs 2`
// used to become two target names, "--jobs" and "2", matching none) and a
// target name that starts no target of the fuzz build. `--cpu-minutes N`
// stops each target after N minutes of its own CPU time.
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
  assert.match(
    r.stderr,
    /unknown option --jobs \(usage: npm run fuzz -- \[--minutes N \| --cpu-minutes N\] \[name…\]\)/,
  );
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

test('a wall-clock and a CPU-time bound together are refused: one would go unused', () => {
  const r = run('--minutes', '1', '--cpu-minutes', '1', 'utf8_fuzz');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--minutes \(wall clock\) and --cpu-minutes \(CPU time\) are two bounds: give one/);
  assert.doesNotMatch(r.stdout, /targets,/);
});

test('a CPU-time bound that is no positive number is refused', () => {
  for (const bad of ['x', '0', '-1']) {
    const r = run('--cpu-minutes', bad, 'utf8_fuzz');
    assert.equal(r.status, 2, bad);
    assert.match(r.stderr, /--cpu-minutes needs a positive number/);
  }
});

test(
  '--cpu-minutes stops a target once its process used that much CPU, with its final stats',
  {
    skip: !existsSync(fuzzBuild) && 'no fuzz build (cmake --preset fuzz)',
  },
  () => {
    const r = run('--cpu-minutes', '0.05', 'utf8_fuzz'); // 3 s of CPU
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const m = /utf8_fuzz\s+(\d+) s wall, (\d+) s CPU {2}execs (\d+) .* no crash/.exec(r.stdout);
    assert.ok(m, r.stdout);
    // Polled every 2 s: stopped at the first poll past 3 s of CPU.
    assert.ok(Number(m[2]) >= 3 && Number(m[2]) <= 7, `${m[2]} s CPU`);
    assert.ok(Number(m[3]) > 0);
    assert.match(r.stdout, /1 targets, 0 crashed/);
  },
);
