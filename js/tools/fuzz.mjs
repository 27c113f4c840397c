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
// `--cpu-minutes N` instead bounds each target by the CPU time its process
// used (read from /proc every few seconds, then SIGINT: libFuzzer prints its
// final stats and exits 72): on a shared machine a wall-clock bound gives a
// target whatever the other work leaves, a CPU bound gives each the same
// amount of fuzzing. Linux only (it reads /proc/<pid>/stat).
// A target with seeds (SEEDS: real inputs from tests/fixtures/) starts its
// corpus from them; seeds missing from a kept corpus are added again.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
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
let cpuMinutes = 0;
const only = [];
function refuse(message) {
  console.error(`webprof fuzz: ${message}`);
  process.exit(2);
}
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--minutes') minutes = Number(args[++i]);
  else if (args[i] === '--cpu-minutes') cpuMinutes = Number(args[++i]);
  else if (args[i].startsWith('-'))
    refuse(`unknown option ${args[i]} (usage: npm run fuzz -- [--minutes N | --cpu-minutes N] [name…])`);
  else only.push(args[i]);
}
// Two bounds would leave one silently unused (the CPU bound won).
if (args.includes('--minutes') && args.includes('--cpu-minutes'))
  refuse('--minutes (wall clock) and --cpu-minutes (CPU time) are two bounds: give one');
if (!(minutes > 0)) refuse('--minutes needs a positive number');
if (args.includes('--cpu-minutes') && !(cpuMinutes > 0)) refuse('--cpu-minutes needs a positive number');
if (cpuMinutes && !existsSync('/proc/self/stat')) refuse('--cpu-minutes needs Linux /proc');
const dir = join(root, 'build/fuzz/tests/fuzz');
if (!existsSync(dir))
  refuse('no fuzz build; run `cmake --preset fuzz && cmake --build build/fuzz -j2` first');
const all = readdirSync(dir)
  .filter((f) => f.endsWith('_fuzz') && statSync(join(dir, f)).isFile())
  .sort();
const unknown = only.filter((o) => !all.some((f) => f.startsWith(o)));
if (unknown.length) refuse(`no target named ${unknown.join(', ')} (targets: ${all.join(', ')})`);
const targets = all.filter((f) => !only.length || only.some((o) => f.startsWith(o)));
// Seconds of CPU (user + system) from /proc/<pid>/stat, in clock ticks (the
// name in field 2 may hold spaces): the process's own (fields 14 and 15), or
// with `children` that of its children it has waited for (16 and 17).
function cpuSeconds(pid, children = false) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const k = children ? 13 : 11;
    return (Number(fields[k]) + Number(fields[k + 1])) / TICKS;
  } catch {
    return null; // already gone, or no /proc
  }
}
const TICKS = existsSync('/proc/self/stat')
  ? Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100
  : 100;

// Runs one target; resolves with its output, exit status and CPU seconds
// (null without /proc). The bound polls the target's own CPU; the figure
// reported is exact: what this process's reaped children grew by over the
// run (the last poll can be up to its interval behind).
function run(name, corpus) {
  const childrenBefore = cpuSeconds('self', true);
  const wall = cpuMinutes ? 0 : Math.max(1, Math.round(minutes * 60)); // 0: libFuzzer's "no limit"
  const child = spawn(
    join(dir, name),
    [corpus, `-max_total_time=${wall}`, '-max_len=4096', '-print_final_stats=1', '-timeout=10'],
    {
      cwd: join(root, 'build/fuzz'),
      // UBSan findings are crashes here (the build lets them recover).
      env: { ...process.env, UBSAN_OPTIONS: 'halt_on_error=1:print_stacktrace=1' },
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => {
    out += d;
    if (out.length > 64 << 20) out = out.slice(-(32 << 20));
  });
  let used = 0;
  let interrupted = false;
  const poll = setInterval(() => {
    const s = cpuSeconds(child.pid);
    if (s !== null) used = s;
    if (cpuMinutes && !interrupted && used >= cpuMinutes * 60) {
      interrupted = true;
      child.kill('SIGINT');
    }
  }, 2000);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      clearInterval(poll);
      // libFuzzer's exit code after SIGINT, once it has printed its stats.
      const ok = status === 0 || (interrupted && status === 72);
      const childrenAfter = cpuSeconds('self', true);
      const cpu = childrenBefore === null || childrenAfter === null ? null : childrenAfter - childrenBefore;
      resolve({ out, ok, status, used: cpu });
    });
  });
}

let failed = 0;
for (const name of targets) {
  const corpus = join(root, 'build/fuzz/corpus', name);
  mkdirSync(corpus, { recursive: true });
  seed(name, corpus);
  const started = Date.now();
  const r = await run(name, corpus);
  const out = r.out;
  const execs = /stat::number_of_executed_units:\s*(\d+)/.exec(out);
  const cov = [...out.matchAll(/cov: (\d+) ft: (\d+)/g)].pop();
  if (!r.ok) failed++;
  const wall = Math.round((Date.now() - started) / 1000);
  console.log(
    `${name.padEnd(22)} ${wall} s wall, ${r.used === null ? '?' : Math.round(r.used)} s CPU  ` +
      `execs ${execs ? execs[1] : '?'}  ` +
      `cov ${cov ? cov[1] : '?'}  ft ${cov ? cov[2] : '?'}  ` +
      `${r.ok ? 'no crash' : `CRASHED (exit ${r.status}); see build/fuzz/crash-*`}`,
  );
  if (!r.ok) console.log(out.split('\n').slice(-40).join('\n'));
}
console.log(`${targets.length} targets, ${failed} crashed`);
process.exit(failed ? 1 : 0);
