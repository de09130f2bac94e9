// A keyboard-only checkout: every field is reached with Tab, typed, the
// terms lightbox is opened and closed with the keyboard, and Enter on
// "Place order" places the order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';
import { addToCart, BUYER, openCheckout } from './checkout-helpers.mjs';

const shop = useShop();

/** Presses Tab (or Shift+Tab) until the focused element matches; fails after max presses. */
async function tabTo(page, selector, { max = 120, back = false } = {}) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  assert.fail(`${selector} was not reached with the keyboard`);
}

const focusedId = (page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.className || '');

test('keyboard only: fill the form, read the terms in the lightbox, place the order with Enter', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    await addToCart(page);
    const data = await openCheckout(page);
    const country = data.countries.find((c) => c.code === 'US') || data.countries.find((c) => c.states.length > 0);

    // From the top of the page.
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await tabTo(page, '#billing_first_name');
    await page.keyboard.type(BUYER.first_name);
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'billing_last_name');
    await page.keyboard.type(BUYER.last_name);
    // A closed select takes type-ahead: typing a country's name chooses it.
    await tabTo(page, '#billing_country');
    await page.keyboard.type(country.name);
    await page.waitForFunction((code) => document.querySelector('#billing_country').value === code, country.code);
    await tabTo(page, '#billing_address_1');
    await page.keyboard.type(BUYER.address_1);
    await tabTo(page, '#billing_city');
    await page.keyboard.type(BUYER.city);
    if (country.states.length > 0) {
      await tabTo(page, '#billing_state');
      const target = country.states[0];
      await page.keyboard.type(target.name);
      await page.waitForFunction((code) => document.querySelector('#billing_state').value === code, target.code);
    } else if (!country.fields.state.hidden && country.fields.state.required) {
      await tabTo(page, '#billing_state');
      await page.keyboard.type('Somewhere');
    }
    if (!country.fields.postcode.hidden) {
      await tabTo(page, '#billing_postcode');
      await page.keyboard.type(BUYER.postcode);
    }
    await tabTo(page, '#billing_phone');
    await page.keyboard.type(BUYER.phone);
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'billing_email');
    await page.keyboard.type(BUYER.email);

    // Bank transfer: radios move with the arrow keys once the group has focus.
    await tabTo(page, 'input[name="payment_method"]');
    for (let i = 0; i < data.payment_methods.length; i++) {
      if (await page.evaluate(() => document.activeElement?.value === 'bacs' && document.activeElement.checked)) break;
      if (await page.evaluate(() => document.activeElement?.value === 'bacs')) {
        await page.keyboard.press('Space');
        break;
      }
      await page.keyboard.press('ArrowDown');
    }
    assert.equal(await page.locator('input[name="payment_method"]:checked').getAttribute('value'), 'bacs');

    if (data.terms) {
      await tabTo(page, '#terms');
      await page.keyboard.press('Space');
      assert.ok(await page.locator('#terms').isChecked());
      // The terms open in a modal lightbox; focus stays inside; Escape closes and returns focus.
      await tabTo(page, 'a.woocommerce-terms-and-conditions-link');
      await page.keyboard.press('Enter');
      const dialog = page.locator('dialog.terms-dialog');
      await dialog.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('terms-dialog__close')), true);
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        assert.ok(await page.evaluate(() => !!document.activeElement?.closest('dialog')), 'focus stays in the lightbox');
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('woocommerce-terms-and-conditions-link')), true);
    }

    await tabTo(page, '#place_order');
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.keyboard.press('Enter')]);
    await page.getByText('Thank you. Your order has been received.').waitFor();
  });
});
