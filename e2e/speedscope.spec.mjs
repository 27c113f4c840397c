// speedscope (npm, a consumer nobody here wrote) imports our .cpuprofile and
// Chrome trace JSON in headless Chromium and shows the same function names
// and sample counts as the source trace.
import { test, expect } from '@playwright/test';
import * as webprof from '../dist/webprof.mjs';

await webprof.ready;
await webprof.loadExporters(); // exports without a Profiler's stop()

// Samples exactly 1 ms apart, so speedscope's self time in ms equals the
// number of samples; the trailing sample closes the last interval.
function input() {
  const frames = [
    { name: 'main', resourceId: 0, line: 1, column: 1 },
    { name: 'work "quoted"', resourceId: 0, line: 10, column: 3 },
    { name: 'parse\\json', resourceId: 0, line: 20, column: 5 },
    { name: 'sort 😀', resourceId: 0, line: 30, column: 7 },
  ];
  const stacks = [
    { frameId: 0 },
    { frameId: 1, parentId: 0 },
    { frameId: 2, parentId: 1 },
    { frameId: 3, parentId: 0 },
  ];
  const plan = [
    [2, 30],
    [3, 20],
    [1, 10],
    [0, 5],
  ];
  const samples = [];
  let t = 100;
  for (const [stackId, n] of plan) for (let i = 0; i < n; i++) samples.push({ timestamp: t++, stackId });
  samples.push({ timestamp: t++, stackId: 0 });
  return { profile: { resources: ['https://example.test/app.js'], frames, stacks, samples } };
}
const EXPECTED_SELF = { 'parse\\json': 30, 'sort 😀': 20, 'work "quoted"': 10, main: 5 };

async function sandwich(page, baseURL, body, name) {
  const logs = [];
  page.on('console', (m) => logs.push(m.text()));
  await page.route(`**/fixture/${name}`, (route) =>
    route.fulfill({
      body: Buffer.from(body),
      headers: { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' },
    }),
  );
  const profileURL = new URL(`/fixture/${name}`, baseURL).href;
  await page.goto(
    `/node_modules/speedscope/dist/release/index.html#profileURL=${encodeURIComponent(profileURL)}&title=t`,
  );
  // The flame views are canvas; wait for the import, then switch to the
  // Sandwich view (key 3), a DOM table.
  await expect.poll(() => logs.join('\n'), { timeout: 20_000 }).toMatch(/Importing as/);
  await page.waitForTimeout(300);
  await page.keyboard.press('3');
  // The table's header comes before its rows (CI once read the header alone):
  // wait for every expected name.
  await page
    .waitForFunction(
      (names) =>
        /Symbol Name/i.test(document.body.innerText) &&
        names.every((n) => document.body.innerText.includes(n)),
      Object.keys(EXPECTED_SELF),
      { timeout: 10_000 },
    )
    .catch(async (e) => {
      throw new Error(
        `${e.message}\nlogs: ${logs.join('\n')}\ntext: ${await page.evaluate(() => document.body.innerText)}`,
      );
    });
  return { text: await page.evaluate(() => document.body.innerText), logs };
}

// Reads "Total Self Symbol" rows: "<total>ms <pct>% <self>ms <pct>% <name>"
function selfByName(text) {
  const out = {};
  for (const name of Object.keys(EXPECTED_SELF)) {
    const i = text.indexOf(name);
    expect(i, `speedscope shows ${name}`).toBeGreaterThan(-1);
    const before = text.slice(Math.max(0, i - 80), i);
    const ms = [...before.matchAll(/([\d.]+)ms/g)].map((m) => Number(m[1]));
    out[name] = ms[ms.length - 1];
  }
  return out;
}

for (const [label, make, file] of [
  ['.cpuprofile', () => webprof.toCpuProfile(input()), 'p.cpuprofile'],
  ['Chrome trace JSON', () => webprof.toChromeTrace(input()), 'trace.json'],
]) {
  test(`speedscope imports our ${label} with the same names and sample counts`, async ({ page, baseURL }) => {
    const { text, logs } = await sandwich(page, baseURL, make(), file);
    expect(selfByName(text)).toEqual(EXPECTED_SELF);
    expect(logs.join('\n')).toMatch(/Importing as Chrome/);
  });
}
