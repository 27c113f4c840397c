export default async ({ page }) => {
  await page.waitForTimeout(1200);
  await page.click('#next');
  await page.waitForURL('**/nav-second.html');
};
