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

/** Launch options for playwright-core's chromium.launch(). */
export function chromiumLaunchOptions({ executablePath = CHROMIUM_PATH, extraArgs = [], ...rest } = {}) {
  return { executablePath, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true, ...rest };
}
