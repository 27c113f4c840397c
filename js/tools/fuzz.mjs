// `npm run fuzz -- --minutes N [name…]`: runs every libFuzzer
// target of the fuzz build (build/fuzz/tests/fuzz/*_fuzz, `cmake --preset fuzz
// && cmake --build build/fuzz`) for N minutes each (default 1), with a corpus
// kept per target under build/fuzz/corpus/<name>/, and prints each target's
// execs, coverage and the verdict. Exits 1 when a target crashed (libFuzzer
// leaves the reproducer as crash-* in build/fuzz/). ASan + UBSan are on in
// that build; a UBSan report stops the run too. Names given: only the targets
// they start (a name that starts none, or an unknown option, is refused rather
// than fuzzing nothing and passing). One target at a time: the machine's few
// cores are shared with builds, and a target given more time finds more than
// two sharing it.
// A target with seeds (SEEDS: real inputs from tests/fixtures/) starts its
// corpus from them; seeds missing from a kept corpus are added again.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// target -> [folder under the repository, file name pattern]
const SEEDS = {
  trace_loader_fuzz: [
    ['tests/fixtures/traces', /\.json$/],
    ['tests/fixtures/traces/golden', /\.w3c\.json$/],
  ],
  stack_parser_fuzz: readdirSync(join(root, 'tests/fixtures/stacks'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'capture')
    .map((d) => [`tests/fixtures/stacks/${d.name}`, /\.txt$/]),
};
function seed(name, corpus) {
  for (const [dir, pattern] of SEEDS[name] || []) {
    for (const f of readdirSync(join(root, dir))) {
      const from = join(root, dir, f);
      const to = join(corpus, `seed-${dir.replace(/\W/g, '-')}-${f}`);
      if (pattern.test(f) && statSync(from).isFile() && !existsSync(to)) copyFileSync(from, to);
    }
  }
}
const args = process.argv.slice(2);
let minutes = 1;
const only = [];
function refuse(message) {
  console.error(`webprof fuzz: ${message}`);
  process.exit(2);
}
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--minutes') minutes = Number(args[++i]);
  else if (args[i].startsWith('-'))
    refuse(`unknown option ${args[i]} (usage: npm run fuzz -- --minutes N [name…])`);
  else only.push(args[i]);
}
if (!(minutes > 0)) refuse('--minutes needs a positive number');
const dir = join(root, 'build/fuzz/tests/fuzz');
if (!existsSync(dir))
  refuse('no fuzz build; run `cmake --preset fuzz && cmake --build build/fuzz -j2` first');
const all = readdirSync(dir)
  .filter((f) => f.endsWith('_fuzz') && statSync(join(dir, f)).isFile())
  .sort();
const unknown = only.filter((o) => !all.some((f) => f.startsWith(o)));
if (unknown.length) refuse(`no target named ${unknown.join(', ')} (targets: ${all.join(', ')})`);
const targets = all.filter((f) => !only.length || only.some((o) => f.startsWith(o)));
let failed = 0;
for (const name of targets) {
  const corpus = join(root, 'build/fuzz/corpus', name);
  mkdirSync(corpus, { recursive: true });
  seed(name, corpus);
  const seconds = Math.max(1, Math.round(minutes * 60));
  const r = spawnSync(
    join(dir, name),
    [corpus, `-max_total_time=${seconds}`, '-max_len=4096', '-print_final_stats=1', '-timeout=10'],
    {
      cwd: join(root, 'build/fuzz'),
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      // UBSan findings are crashes here (the build lets them recover).
      env: { ...process.env, UBSAN_OPTIONS: 'halt_on_error=1:print_stacktrace=1' },
    },
  );
  const out = `${r.stdout}${r.stderr}`;
  const execs = /stat::number_of_executed_units:\s*(\d+)/.exec(out);
  const cov = [...out.matchAll(/cov: (\d+) ft: (\d+)/g)].pop();
  const ok = r.status === 0;
  if (!ok) failed++;
  console.log(
    `${name.padEnd(22)} ${seconds} s  execs ${execs ? execs[1] : '?'}  cov ${cov ? cov[1] : '?'}  ` +
      `ft ${cov ? cov[2] : '?'}  ${ok ? 'no crash' : `CRASHED (exit ${r.status}); see build/fuzz/crash-*`}`,
  );
  if (!ok) console.log(out.split('\n').slice(-40).join('\n'));
}
console.log(`${targets.length} targets, ${failed} crashed`);
process.exit(failed ? 1 : 0);
