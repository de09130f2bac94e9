// Cross-tab cart sync: two tabs of one browser context; a change in one
// updates the other's header count, subtotal and mini cart without a reload.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';

const shop = useShop();

test("another tab's add, cart-page update and removal reach this tab without a reload", async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (a, context) => {
    const b = await context.newPage();
    const problems = [];
    for (const p of [a, b]) p.on('pageerror', (e) => problems.push(e.message));
    const refreshes = [];
    const aRequests = [];
    a.on('request', (r) => {
      if (r.url().includes('wc-ajax=')) aRequests.push(r.url());
      if (r.url().includes('wc-ajax=get_refreshed_fragments')) refreshes.push(r.url());
    });
    await a.goto('/shop/');
    await a.locator('a.header-cart[aria-expanded]').waitFor();
    await b.goto('/shop/');
    await b.locator('a.header-cart[aria-expanded]').waitFor();
    assert.deepEqual(aRequests, [], 'an empty cart makes no cart request on load');

    // Tab B adds: tab A's count, subtotal and mini cart follow.
    await b.locator('a.ajax_add_to_cart[data-product_id]').first().click();
    await b.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '1');
    await a.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '1');
    assert.match(await a.locator('.header-cart .header-cart-total').textContent(), /^\$\d+\.\d\d$/);
    assert.equal(await a.locator('#mini-cart-panel .widget_shopping_cart_content li.mini_cart_item').count(), 1);
    assert.equal(a.url().endsWith('/shop/'), true, 'no reload');
    assert.equal(refreshes.length, 1, 'one refresh for one change');

    // Tab B updates the quantity on the cart page (Store API): tab A follows.
    await b.goto('/cart/');
    const qty = b.locator('form.woocommerce-cart-form input.qty').first();
    await b.locator('form.woocommerce-cart-form .quantity--buttons').first().waitFor();
    await qty.fill('3');
    await b.getByRole('button', { name: 'Update cart' }).click();
    await b.getByText('Cart updated.').waitFor();
    await a.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '3');
    assert.match(await a.locator('#mini-cart-panel .quantity').first().textContent(), /^3 ×/);

    // Tab A, now also on the cart page, sees tab B's removal in its table.
    await a.goto('/cart/');
    await a.locator('form.woocommerce-cart-form .quantity--buttons').first().waitFor();
    await b.locator('form.woocommerce-cart-form a.remove').first().click();
    await b.getByText('Your cart is currently empty.').waitFor();
    await a.getByText('Your cart is currently empty.').waitFor();
    await a.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '0');
    assert.deepEqual(problems, []);
  });
});
