// Chromium with V8's deoptimization trace (`--js-flags=--trace-deopt`) for
// the check-cost probes (deopt_probe.mjs, slow_path_probe.mjs): the trace's
// lines that match `keep` are collected as they arrive.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../../js/node/chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * Launches a browser server with V8's deoptimization trace and connects to
 * it. `lines` fills with the trace's lines that match `keep` (empty it in
 * place to count per step); close() closes the browser and its server.
 * @param {RegExp} keep
 * @param {string[]} [extraArgs] more Chromium arguments
 */
export async function launchWithDeoptTrace(keep, extraArgs = []) {
  const options = chromiumLaunchOptions({ extraArgs: ['--js-flags=--trace-deopt', ...extraArgs] });
  // V8 writes its traces to the renderer's stdout, block-buffered into a
  // pipe: without line buffering (stdbuf) they arrive in 4 KB chunks, late
  // (counts per step come out wrong), and the last chunk is lost at exit.
  const wrapper = join(root, 'build/bench/chromium-line-buffered.sh');
  mkdirSync(dirname(wrapper), { recursive: true });
  writeFileSync(wrapper, `#!/bin/sh\nexec stdbuf -oL -eL ${options.executablePath} "$@"\n`, { mode: 0o755 });
  const server = await chromium.launchServer({ ...options, executablePath: wrapper });
  const lines = [];
  for (const s of [server.process().stdout, server.process().stderr])
    s.on('data', (d) =>
      lines.push(
        ...String(d)
          .split('\n')
          .filter((l) => keep.test(l)),
      ),
    );
  let browser;
  try {
    browser = await chromium.connect(server.wsEndpoint());
  } catch (e) {
    await server.close();
    throw e;
  }
  return {
    browser,
    lines,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
