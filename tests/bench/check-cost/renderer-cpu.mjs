// CPU time of a Chromium page's main thread, read from Linux's scheduler
// statistics, so a timing on a shared machine counts the time the page's
// thread ran, not the time it waited for a core (wall time under a load of
// 15 on 2 cores swung by ×0.5–×3.6 between rounds; see check_cost_bench.mjs).
// The page's renderer is found among the browser process's descendants as
// the renderer whose main thread (tid = pid) runs while the page is busy.
import { readFileSync, readdirSync } from 'node:fs';

function processTable() {
  const table = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The second field, (comm), may hold spaces: the parent id follows its ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      table.push({ pid: Number(name), ppid });
    } catch {
      // The process ended meanwhile.
    }
  }
  return table;
}

function renderers(browserPid) {
  const table = processTable();
  const ours = new Set([browserPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of table)
      if (!ours.has(p.pid) && ours.has(p.ppid)) {
        ours.add(p.pid);
        grew = true;
      }
  }
  return [...ours].filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

/** Nanoseconds the main thread of process `pid` has run. */
export function threadCpuNs(pid) {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]);
}

/**
 * The pid of the renderer running `page` (a Playwright page of the browser
 * whose process is `browserPid`): the one whose main thread runs most while
 * the page spins for `ms`.
 */
export async function rendererOf(page, browserPid, ms = 300) {
  const pids = renderers(browserPid);
  const before = pids.map(threadCpuNs);
  await page.evaluate((ms) => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  }, ms);
  const grew = pids.map((pid, i) => threadCpuNs(pid) - before[i]);
  const best = grew.indexOf(Math.max(...grew));
  if (best < 0) throw new Error('no renderer process found');
  return pids[best];
}
