// The header mini cart: a disclosure opened by the cart link, filled from the
// last fragments, opened for 5 s after an add; remove with the overlay; axe.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { holdRequests, useShop } from './server.mjs';

const shop = useShop();

test('empty cart: opens with the empty state without a cart request; Escape closes and focus returns', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const cartRequests = [];
    page.on('request', (r) => r.url().includes('wc-ajax=') && cartRequests.push(r.url()));
    await page.goto('/shop/');
    const toggle = page.locator('a.header-cart[aria-expanded]');
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await page.locator('#mini-cart-panel').waitFor({ state: 'visible' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.match(await page.locator('#mini-cart-panel').textContent(), /No products in the cart\./);
    await page.keyboard.press('Escape');
    await page.locator('#mini-cart-panel').waitFor({ state: 'hidden' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('header-cart')), true);
    assert.deepEqual(cartRequests, []);
  });
});

test('after an add the mini cart opens for 5 s; remove shows "Please wait..." then the empty cart; axe passes while open', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto('/shop/');
    const button = page.locator('a.ajax_add_to_cart[data-product_id]').first();
    await page.locator('a.header-cart[aria-expanded]').waitFor();
    await button.click();
    const panel = page.locator('#mini-cart-panel');
    await panel.waitFor({ state: 'visible' });
    const opened = Date.now();
    await panel.locator('a.remove_from_cart_button').waitFor();
    assert.equal(await page.locator('a.header-cart').getAttribute('aria-expanded'), 'true');

    await assertAccessible(page, 'the header with the mini cart open', { include: '.site-header', anyImpact: true });

    await panel.waitFor({ state: 'hidden', timeout: 8000 });
    const elapsed = Date.now() - opened;
    assert.ok(elapsed >= 4000 && elapsed < 7500, `closed after ${elapsed} ms`);

    // Open again (filled from the last fragments) and remove the line, with the answer held back.
    await page.locator('a.header-cart').click();
    await panel.waitFor({ state: 'visible' });
    const release = await holdRequests(page, '**/?wc-ajax=remove_from_cart');
    await panel.locator('a.remove_from_cart_button').click();
    await panel.locator('.blockUI', { hasText: 'Please wait...' }).waitFor();
    release();
    await panel.locator('.widget_shopping_cart_content', { hasText: 'No products in the cart.' }).waitFor();
    await page.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '0');
    assert.deepEqual(problems, []);
  });
});

test("on a product page the mini cart's '1 × price' line is plain text, not framed like the product's quantity box", async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    await page.goto('/shop/');
    await page.locator('a.header-cart[aria-expanded]').waitFor();
    await page.locator('a.ajax_add_to_cart[data-product_id]').first().click();
    await page.locator('#mini-cart-panel a.remove_from_cart_button').waitFor();
    // A product page: its own quantity box is framed; the mini cart's line is not.
    await page.goto('/product/classic-tee/');
    await page.locator('.quantity-field .qty').waitFor();
    const frame = (loc) => loc.evaluate((el) => {
      const cs = getComputedStyle(el);
      return { border: cs.borderTopWidth, style: cs.borderTopStyle, padLeft: cs.paddingLeft };
    });
    const box = await frame(page.locator('form.cart .quantity-field').first());
    assert.notEqual(box.style, 'none', 'the product quantity box has its border');
    await page.locator('a.header-cart').click();
    const line = page.locator('#mini-cart-panel .mini_cart_item .quantity').first();
    await line.waitFor();
    assert.match(await line.textContent(), /^1 × /);
    assert.deepEqual(await frame(line), { border: '0px', style: 'none', padLeft: '0px' }, 'the mini cart line has no frame');
  });
});
