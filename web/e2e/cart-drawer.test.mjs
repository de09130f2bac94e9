// The off-canvas mini cart on narrow screens: a modal <dialog> opened by the
// header cart button and after an add; keyboard only, removal, axe.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { productId } from './checkout-helpers.mjs';
import { holdRequests, useShop, withoutErrors } from './server.mjs';

const shop = useShop();
const PHONE = { viewport: { width: 390, height: 800 } };

/** A phone-sized page unless options say otherwise, which must see no uncaught error. */
const withPage = (fn, options = PHONE) => shop.withPage(options, withoutErrors(fn, { consoleErrors: false }));

const where = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return el.closest('dialog.mini-cart-drawer') ? 'drawer' : 'page';
  });

test('keyboard only: open, Tab stays inside, Escape closes and focus returns; the page behind is inert and still; axe', async () => {
  await withPage(async (page) => {
    const tank = await productId(page, 'cotton-tank-top');
    await page.goto(`/?add-to-cart=${tank}`); // the cart has a line (no-script add)
    await page.goto('/shop/');
    const toggle = page.locator('a.header-cart[aria-haspopup="dialog"]');
    await toggle.waitFor();
    // Tab from the top of the page to the cart button.
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.classList.contains('header-cart') ?? false);
    }
    assert.ok(reached, 'Tab reaches the header cart button');
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Cart' });
    await drawer.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await page.evaluate(() => document.querySelector('dialog.mini-cart-drawer').matches(':modal')), true, 'a modal dialog');
    assert.equal(await where(page), 'drawer', 'focus moved into the drawer');
    await drawer.locator('.widget_shopping_cart_content a.remove_from_cart_button').waitFor();
    assert.equal(await drawer.getByRole('link', { name: 'View cart' }).getAttribute('href'), '/cart/');
    assert.equal(await drawer.getByRole('link', { name: 'Checkout' }).getAttribute('href'), '/checkout/');
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).overflow), 'hidden', 'no scroll behind');

    const visited = new Set();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      assert.equal(await where(page), 'drawer', `Tab ${i + 1} stays in the drawer`);
      visited.add(await page.evaluate(() => document.activeElement.outerHTML.slice(0, 60)));
    }
    assert.ok(visited.size >= 4, `Tab cycles through the drawer (${visited.size} stops)`);
    await page.keyboard.press('Shift+Tab');
    assert.equal(await where(page), 'drawer');

    await assertAccessible(page, 'the open cart drawer');

    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('header-cart')), true, 'focus back on the cart button');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.notEqual(await page.evaluate(() => getComputedStyle(document.documentElement).overflow), 'hidden');

    // The close button closes it too.
    await page.keyboard.press('Enter');
    await drawer.waitFor();
    await page.keyboard.press('Enter'); // focus is on the close button
    await drawer.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('header-cart')), true);
  });
});

test('opens after an add; remove shows "Please wait..." then the empty cart; a failed remove follows the link', async () => {
  await withPage(async (page) => {
    await page.goto('/shop/');
    await page.locator('a.header-cart[aria-haspopup="dialog"]').waitFor();
    const add = page.locator('a.ajax_add_to_cart[data-product_id]').first();
    await add.click();
    const drawer = page.getByRole('dialog', { name: 'Cart' });
    await drawer.waitFor();
    await drawer.locator('a.remove_from_cart_button').waitFor();
    assert.equal(await where(page), 'drawer');
    assert.equal(await page.locator('#mini-cart-panel').isVisible(), false, 'not the dropdown');

    const release = await holdRequests(page, '**/?wc-ajax=remove_from_cart');
    await drawer.locator('a.remove_from_cart_button').click();
    const overlay = drawer.locator('.blockUI', { hasText: 'Please wait...' });
    await overlay.waitFor();
    assert.equal(await overlay.evaluate((el) => getComputedStyle(el).opacity), '0.6');
    release();
    await drawer.locator('.widget_shopping_cart_content', { hasText: 'No products in the cart.' }).waitFor();
    await page.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '0');
    assert.equal(await where(page), 'drawer', 'focus stays in the drawer after the removal');
    await page.unroute('**/?wc-ajax=remove_from_cart');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // A failed removal navigates to the link's own href (/cart/?remove_item=KEY), which removes it.
    await add.click();
    await drawer.waitFor();
    await drawer.locator('a.remove_from_cart_button').waitFor();
    await page.route('**/?wc-ajax=remove_from_cart', (route) => route.fulfill({ status: 500, body: '' }));
    await Promise.all([page.waitForURL('**/cart/'), drawer.locator('a.remove_from_cart_button').click()]);
    await page.getByText('Your cart is currently empty.').waitFor();
  });
});
