// axe scans of the checkout (as loaded, with errors shown, with the terms
// lightbox open, on a phone) and of the order-received page (with and
// without the order key).
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';
import { acceptTerms, addToCart, bankTitle, countryKinds, fillBilling, openCheckout } from './checkout-helpers.mjs';

const shop = useShop();

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
]) {
  test(`axe: the checkout page at ${viewport.width}px, as loaded, with errors and with the terms open`, async () => {
    await shop.withPage({ viewport }, async (page) => {
      await addToCart(page);
      const data = await openCheckout(page);
      await assertAccessible(page, 'checkout');
      await page.getByRole('button', { name: 'Place order' }).click();
      await page.locator('.woocommerce-NoticeGroup-checkout [role="alert"]').waitFor();
      await assertAccessible(page, 'checkout with errors');
      if (data.terms) {
        await page.getByRole('link', { name: 'Read the terms and conditions' }).click();
        await page.locator('dialog.terms-dialog[open]').waitFor();
        await assertAccessible(page, 'checkout with the terms lightbox');
      }
    });
  });
}

test('axe: the order-received page, and the page without its key', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    await addToCart(page);
    const data = await openCheckout(page);
    await fillBilling(page, countryKinds(data).withStates);
    await page.getByRole('radio', { name: bankTitle(data) }).check();
    await acceptTerms(page);
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.getByRole('button', { name: 'Place order' }).click()]);
    await page.getByText('Thank you. Your order has been received.').waitFor();
    await assertAccessible(page, 'order received');
    await page.goto(new URL(page.url()).pathname);
    await page.getByText('This order cannot be shown').waitFor();
    await assertAccessible(page, 'order received without key');
  });
});
