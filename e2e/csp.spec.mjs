// A strict Content-Security-Policy: WebAssembly allowed, no eval. The core
// starts (the glue generates no code: -sDYNAMIC_EXECUTION=0) and records a
// trace; where WebAssembly itself is refused, the error is short, says why,
// and carries neither Emscripten's advice nor the Wasm bytes.
import { test, expect } from '@playwright/test';

const STRICT = "script-src 'self' 'wasm-unsafe-eval'";
const NO_WASM = "script-src 'self'";

async function open(page, path, policy) {
  const violations = [];
  page.on('console', (m) => /Content.Security.Policy/i.test(m.text()) && violations.push(m.text()));
  await page.goto(`${path}?csp=${encodeURIComponent(policy)}`);
  const result = await page
    .waitForFunction(() => window.result)
    .then(() => page.evaluate(() => window.result));
  return { result, violations };
}

for (const kind of ['esm', 'dropin']) {
  test(`${kind}: under ${STRICT} ready resolves and a trace is recorded`, async ({ page }) => {
    const { result, violations } = await open(page, `/e2e/pages/csp/${kind}.html`, STRICT);
    expect(result.error).toBeUndefined();
    expect(result.samples).toBeGreaterThan(0);
    expect(result.hot).toBe(true);
    expect(violations).toEqual([]);
  });

  test(`${kind}: refused WebAssembly gives a short error that says why`, async ({ page }) => {
    const { result } = await open(page, `/e2e/pages/csp/${kind}.html`, NO_WASM);
    expect(result.error.name).toBe('WebprofError');
    expect(result.error.message).toContain("'wasm-unsafe-eval'");
    expect(result.error.message).not.toMatch(/ASSERTIONS|Aborted\(|base64/);
    expect(result.error.message.length).toBeLessThan(500);
  });
}
