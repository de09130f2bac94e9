// axe scans of the checkout (as loaded, with errors shown, with the terms
// lightbox open, on a phone) and of the order-received page (with and
// without the order key).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { newContext, useShop } from './server.mjs';
import { acceptTerms, addToCart, bankTitle, countryKinds, fillBilling, openCheckout, seriousViolations } from './checkout-helpers.mjs';

const shop = useShop();

async function scan(page, label) {
  const results = await new AxeBuilder({ page }).analyze();
  assert.ok(results.passes.length > 0, 'axe ran its rules');
  assert.deepEqual(seriousViolations(results), [], `axe on ${label}`);
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
]) {
  test(`axe: the checkout page at ${viewport.width}px, as loaded, with errors and with the terms open`, async () => {
    const context = await newContext(shop.browser, shop.server.baseURL, { viewport });
    try {
      const page = await context.newPage();
      await addToCart(page);
      const data = await openCheckout(page);
      await scan(page, 'checkout');
      await page.getByRole('button', { name: 'Place order' }).click();
      await page.locator('.woocommerce-NoticeGroup-checkout [role="alert"]').waitFor();
      await scan(page, 'checkout with errors');
      if (data.terms) {
        await page.getByRole('link', { name: 'Read the terms and conditions' }).click();
        await page.locator('dialog.terms-dialog[open]').waitFor();
        await scan(page, 'checkout with the terms lightbox');
      }
    } finally {
      await context.close();
    }
  });
}

test('axe: the order-received page, and the page without its key', async () => {
  const context = await newContext(shop.browser, shop.server.baseURL, { viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await addToCart(page);
    const data = await openCheckout(page);
    await fillBilling(page, countryKinds(data).withStates);
    await page.getByRole('radio', { name: bankTitle(data) }).check();
    await acceptTerms(page);
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.getByRole('button', { name: 'Place order' }).click()]);
    await page.getByText('Thank you. Your order has been received.').waitFor();
    await scan(page, 'order received');
    await page.goto(new URL(page.url()).pathname);
    await page.getByText('This order cannot be shown').waitFor();
    await scan(page, 'order received without key');
  } finally {
    await context.close();
  }
});
