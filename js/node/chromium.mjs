// How webprof starts Debian's headless Chromium (CLI, tests, demo, benches).
// The network flags matter: without them Chromium keeps trying to reach
// Google's services, which a closed network refuses many times a second.
export const CHROMIUM_PATH =
  (typeof process === 'object' && process.env.WEBPROF_CHROMIUM) || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// Lets every page share memory with a Worker (a SharedArrayBuffer exposed and
// postable) without being cross-origin isolated, as every desktop Chromium
// did before version 92: the polyfill's dense checks then run in ticker mode,
// where a sample lands where time is spent (js/profiler/dense.mjs). Nothing
// else about the page changes (no header, no isolation: its popups, frames
// and cross-origin loads behave as without webprof). A Blink switch, so it
// does not replace the `--enable-features` list Playwright passes.
// `webprof record` and the Playwright fixture add it unless told not to.
export const SHARED_MEMORY_ARG = '--enable-blink-features=SharedArrayBufferUnrestrictedAccessAllowed';

/** `args` with shared memory allowed (merged into an `--enable-blink-features` already there). */
export function withSharedMemory(args = []) {
  const [flag, feature] = SHARED_MEMORY_ARG.split('=');
  const i = args.findIndex((a) => a.startsWith(`${flag}=`));
  if (i < 0) return [...args, SHARED_MEMORY_ARG];
  const list = args[i]
    .slice(flag.length + 1)
    .split(',')
    .filter(Boolean);
  if (list.includes(feature)) return [...args];
  const out = [...args];
  out[i] = `${flag}=${[...list, feature].join(',')}`;
  return out;
}

/** Launch options for playwright-core's chromium.launch(). */
export function chromiumLaunchOptions({ executablePath = CHROMIUM_PATH, extraArgs = [], ...rest } = {}) {
  return { executablePath, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true, ...rest };
}
