// The two browsers the ticker probes run in (tests/bench/ticker_race_probe.mjs,
// ticker_visibility.mjs): Chromium 156 and Firefox ESR, each page served by one
// static server, cross-origin isolated (`?coi`) so both may share memory.
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { startStaticServer } from '../../../e2e/server.mjs';
import { chromiumLaunchOptions } from '../../../js/node/chromium.mjs';

/** Calls measure(name, page, url) in Chromium, then in Firefox ESR; `path` is the page's path from the root. */
export async function inBothBrowsers(path, measure) {
  const server = await startStaticServer({ port: 0 });
  const url = `http://127.0.0.1:${server.address().port}/${path}?coi`;
  try {
    const c = await chromium.launch(chromiumLaunchOptions());
    await measure('Chromium', await c.newPage(), url).finally(() => c.close());
    const f = await puppeteer.launch({
      browser: 'firefox',
      executablePath: process.env.WEBPROF_FIREFOX || '/usr/lib/firefox-esr/firefox-esr',
      headless: true,
    });
    await measure('Firefox ESR', await f.newPage(), url).finally(() => f.close());
  } finally {
    server.close();
  }
}
