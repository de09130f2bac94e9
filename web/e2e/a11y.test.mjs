// Accessibility: axe finds no serious or critical violation, and the skip link works.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';

const shop = useShop();

const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 375, height: 812 };

const SCANS = [
  { path: '/', viewport: DESKTOP },
  { path: '/shop/', viewport: DESKTOP },
  { path: '/product-category/clothing/', viewport: DESKTOP },
  { path: '/product/classic-tee/', viewport: DESKTOP },
  { path: '/product/classic-tee/', viewport: MOBILE },
  { path: '/this-page-does-not-exist/', viewport: DESKTOP, status: 404 },
];

for (const { path, viewport, status = 200 } of SCANS) {
  test(`axe: no serious or critical violations on ${path} at ${viewport.width}px`, async () => {
    await shop.withPage({ viewport }, async (page) => {
      const res = await page.goto(path);
      assert.equal(res.status(), status);
      await page.waitForLoadState('networkidle');
      await assertAccessible(page, `${path} at ${viewport.width}px`);
    });
  });
}

test('Tab from the top of the product page focuses "Skip to content", which moves focus into main', async () => {
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    await page.goto('/product/classic-tee/');
    await page.waitForLoadState('networkidle');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return { tag: el?.tagName, text: el?.textContent?.trim(), href: el?.getAttribute('href') };
    });
    assert.deepEqual(focused, { tag: 'A', text: 'Skip to content', href: '#content' }, 'first Tab stop');
    assert.equal(await page.getByRole('link', { name: 'Skip to content' }).isVisible(), true, 'the focused skip link is visible');

    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !!document.activeElement?.closest('main'));
    const where = await page.evaluate(() => ({
      inMain: !!document.activeElement?.closest('main'),
      id: document.activeElement?.id,
      hash: location.hash,
    }));
    assert.equal(where.inMain, true, `focus is inside main (${JSON.stringify(where)})`);
    assert.equal(where.hash, '#content');

    // The next Tab continues inside the content, not back in the header.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement?.closest('main')), true, 'next Tab stop is in main');
  });
});
