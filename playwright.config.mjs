// e2e in Debian's Chromium (Playwright never downloads a browser here).
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './js/node/chromium.mjs';

const port = Number(process.env.WEBPROF_PORT || 8787);

export const chromiumLaunch = chromiumLaunchOptions();

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.mjs',
  timeout: 60_000,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: chromiumLaunch,
  },
  webServer: {
    command: `node e2e/server.mjs --port ${port}`,
    url: `http://127.0.0.1:${port}/package.json`,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
});
