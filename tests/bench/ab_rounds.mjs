// Two builds of one bench, A and B, measured in interleaved child processes
// (each child loads one build: the cores cannot share a process), so load on
// a shared machine falls on both alike; prints each figure's medians and B/A.
// The bench script runs itself with `--child BUILD` and prints its figures
// as one JSON object (page_core_bench.mjs, core_build_bench.mjs).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A bench script's entry: as `--child BUILD`, prints measure(BUILD) as JSON;
 * run directly, the interleaved rounds of abRounds.
 * @param {string} url the script's import.meta.url
 * @param {(build: string) => Promise<object>} measure one child's figures
 * @param {string} usage what to print when A or B is missing
 */
export async function benchMain(url, measure, usage) {
  const self = fileURLToPath(url);
  if (process.argv[2] === '--child') console.log(JSON.stringify(await measure(process.argv[3])));
  else if (process.argv[1] === self) abRounds(self, process.argv.slice(2), usage);
}

/**
 * @param {string} self the bench script's path
 * @param {string[]} argv its arguments after the script: A B [rounds]
 * @param {string} usage what to print when A or B is missing
 */
export function abRounds(self, argv, usage) {
  const [a, b] = argv;
  if (!a || !b) throw new Error(`usage: ${usage}`);
  const rounds = Number(argv[2] || 5);
  const runs = { A: [], B: [] };
  for (let i = 0; i < rounds; i++) {
    for (const [k, build] of [
      ['A', a],
      ['B', b],
    ]) {
      runs[k].push(
        JSON.parse(execFileSync(process.execPath, [self, '--child', build], { encoding: 'utf8' })),
      );
    }
  }
  const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
  console.log(`A = ${a}, B = ${b}, medians of ${rounds} interleaved rounds`);
  for (const key of Object.keys(runs.A[0])) {
    const A = median(runs.A.map((r) => r[key]));
    const B = median(runs.B.map((r) => r[key]));
    console.log(`${key}: A ${A.toFixed(1)}, B ${B.toFixed(1)}, B/A ${(B / A).toFixed(2)}`);
  }
}
