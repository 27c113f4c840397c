// The Playwright fixture through Playwright's own `test.extend` typing: the
// `webprof` fixture and the `webprofProfile` / `webprofDense` / `webprofTicker` options.
import { test as base, expect } from '@playwright/test';
import { withWebprof, type WebprofFixture, type ProfileResult } from 'webprof/playwright';

const test = withWebprof(base);
test.use({ webprofProfile: { sampleInterval: 1, native: false }, webprofDense: false });
test.use({ webprofProfile: null });
test.use({ webprofTicker: false });
// @ts-expect-error webprofTicker is a boolean
test.use({ webprofTicker: 'no' });
// @ts-expect-error sampleInterval is a number
test.use({ webprofProfile: { sampleInterval: '1' } });
// @ts-expect-error not an option of the fixture
test.use({ webprofProfil: null });

test('fixture types', async ({ page, webprof, webprofProfile, webprofDense }) => {
  const fixture: WebprofFixture = webprof;
  const r: ProfileResult = await fixture.profile(() => page.click('#pay'), { dense: true });
  const whole: ProfileResult = await webprof.stop();
  const backend: 'native' | 'devtools' | 'polyfill' = r.backend;
  const mode: 'ticker' | 'counter' | null = r.denseMode;
  const dense: boolean = webprofDense;
  expect(webprofProfile?.sampleInterval).toBeUndefined();
  void [whole, backend, mode, dense, webprof.results.length];
});
// A test extended further keeps the fixture.
export const more = test.extend<{ extra: number }>({ extra: 1 });
more('still typed', async ({ webprof, extra }) => {
  void [webprof.results, extra];
});
