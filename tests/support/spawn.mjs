// A child process run to its end without blocking the test's event loop — a
// static server in the same process must keep answering the child (spawnSync
// would deadlock a `webprof record` of it) — resolving to its exit status and
// what it wrote. `webprofCli` runs the built CLI (dist/webprof-cli.mjs), as a
// user's shell would.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../dist/webprof-cli.mjs', import.meta.url));

/** Resolves to {status, stdout, stderr}; rejects only when `cmd` cannot start. */
export function spawnText(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `webprof <args…>` through the built CLI: {status, stdout, stderr}. */
export function webprofCli(args, options = {}) {
  return spawnText(process.execPath, [cli, ...args], options);
}
