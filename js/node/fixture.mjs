// The Playwright Test fixture (`withWebprof`): profiles on request — a
// block (`webprof.profile`) or the whole test (`webprofProfile`) — and
// attaches the files to the test's report.
import { withSharedMemory } from './chromium.mjs';
import { hasLeftDocuments } from './documents.mjs';
import {
  firstLine,
  install,
  profile,
  profileOptions,
  profilingIn,
  stopProfile,
  watchPageErrors,
} from './page-profile.mjs';
import { contentType } from './result.mjs';

/**
 * Extends a Playwright `test` with a `webprof` fixture. Profiling is on request:
 * `test.use({ webprofProfile: { sampleInterval: 1 } })` profiles every test of
 * the scope; `webprof.profile(actions)` profiles a block. Files are attached
 * to the test report.
 *   import { test as base } from '@playwright/test';
 *   const test = withWebprof(base);
 */
export function withWebprof(base) {
  return base.extend({
    webprofProfile: [null, { option: true }],
    webprofDense: [true, { option: true }],
    // Chromium is started with shared memory allowed (js/node/chromium.mjs),
    // so the polyfill's checks run in ticker mode: time-faithful shares.
    // Per worker process, like the browser; `webprofTicker: false` opts out.
    webprofTicker: [true, { option: true, scope: 'worker' }],
    launchOptions: [
      async ({ launchOptions, browserName, webprofTicker }, use) => {
        if (!webprofTicker || browserName !== 'chromium') return use(launchOptions);
        await use({ ...launchOptions, args: withSharedMemory(launchOptions.args) });
      },
      { scope: 'worker' },
    ],
    webprof: [
      async ({ page, webprofProfile, webprofDense }, use, testInfo) => {
        const results = [];
        const attach = async (result, label) => {
          for (const [name, buf] of Object.entries(result.files)) {
            await testInfo.attach(`${label}${name}`, {
              body: Buffer.from(buf),
              contentType: contentType(name),
            });
          }
          // Said where the test's reader looks: the report and the console.
          if (result.diagnostic) say(result.diagnostic);
          if (result.problems.length) say(`not collected: ${result.problems.join('; ')}`);
        };
        const say = (text) => {
          testInfo.annotations.push({ type: 'webprof', description: text });
          console.warn(`webprof: ${text}`);
        };
        // Scripts are rewritten from the first page load on, so a profile
        // taken later (webprof.profile) samples inside synchronous code.
        const native = !!(webprofProfile && webprofProfile.native);
        const dense =
          webprofProfile && webprofProfile.dense !== undefined
            ? !!webprofProfile.dense
            : webprofDense && !native;
        if (webprofProfile || dense)
          await install(page, {
            native,
            dense,
            // 'auto' (not a forced 'native'): the first blank document has no
            // policy and the init script must not throw into it; served
            // documents carry the policy, and 'auto' takes the native sampler there.
            autoStart: webprofProfile && profileOptions({ ...webprofProfile, native: false }),
          });
        watchPageErrors(page);
        const stopWholeTest = async () => {
          const r = await stopProfile(page);
          results.push(r);
          await attach(r, 'webprof-test-');
          return r;
        };
        let stopped = false; // by the test, webprof.stop()
        const api = {
          results,
          /** Stops the whole-test profile now (webprofProfile) and returns it. */
          stop() {
            stopped = true;
            return stopWholeTest();
          },
          async profile(actions, options = {}) {
            const r = await profile(page, actions, options);
            results.push(r);
            await attach(r, `webprof-${results.length}-`);
            return r;
          },
        };
        await use(api);
        if (!webprofProfile) return;
        // A page the test closed (or that crashed) still has the documents
        // it left to write, and the reader is told what was lost — never
        // an error swallowed, never one that fails a test that passed.
        const running = page.isClosed() ? null : await profilingIn(page);
        const gone = running === null && !stopped && page.url() !== 'about:blank';
        if (running || gone || hasLeftDocuments(page)) {
          try {
            await stopWholeTest();
          } catch (e) {
            say(`the whole-test profile was not written: ${firstLine(e).replace(/^webprof: /, '')}`);
          }
        }
      },
      { auto: true },
    ],
  });
}
