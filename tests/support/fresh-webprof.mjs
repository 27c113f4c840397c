// A case run as a page meets webprof: a fresh Node process (one core, one
// tools module) whose module imports the browser build, dist/webprof.mjs, as
// `w` and prints one JSON line. A static import: the body's top level runs
// before loading starts, so globals it sets (webprofWasmUrl, …) still count.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../../dist/webprof.mjs', import.meta.url));

/**
 * Runs `body` (module code that sees `w` and logs JSON) and returns the parsed
 * JSON. A body that hangs fails the test after two minutes instead.
 */
export function runWithFreshWebprof(body) {
  const code = `import * as w from ${JSON.stringify(entry)};\n${body}`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      encoding: 'utf8',
      timeout: 120000,
    }),
  );
}
