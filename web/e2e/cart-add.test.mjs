// Ajax add to cart from product cards: button states, the View cart link,
// the live region, the header count; and no cart request for a new visitor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';

const shop = useShop();

test('a new visitor makes no cart request on page load', async () => {
  await shop.withPage(async (page) => {
    const cartRequests = [];
    page.on('request', (r) => {
      const u = r.url();
      if (u.includes('wc-ajax=') || u.includes('/wc/store/v1/cart')) cartRequests.push(u);
    });
    await page.goto('/shop/');
    await page.locator('a.ajax_add_to_cart').first().waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(cartRequests, []);
    assert.equal((await page.locator('.header-cart .cart-count').textContent()).trim(), '0');
  });
});

test('add from a card: loading then added, one View cart link, live region after ~1 s, header count 1', async () => {
  await shop.withPage(async (page, context) => {
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto('/shop/');
    const button = page.locator('a.ajax_add_to_cart[data-product_id]').first();
    await button.waitFor();
    await page.waitForFunction(() => document.getElementById('cart-live-region'));
    const message = await button.getAttribute('data-success_message');
    const posted = page.waitForRequest((r) => r.url().includes('wc-ajax=add_to_cart') && r.method() === 'POST');
    const started = Date.now();
    await button.click();
    const req = await posted;
    const form = new URLSearchParams(req.postData());
    assert.equal(form.get('product_id'), await button.getAttribute('data-product_id'));
    assert.equal(form.get('quantity'), '1');
    assert.equal(form.get('success_message'), message);

    await page.locator('a.ajax_add_to_cart.added').first().waitFor();
    assert.equal(await button.evaluate((el) => el.classList.contains('loading')), false);
    assert.equal(await page.locator('a.added_to_cart.wc-forward').count(), 1);
    assert.equal(await button.evaluate((el) => el.nextElementSibling?.getAttribute('href')), '/cart/');
    await page.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '1');
    assert.match(await page.locator('.header-cart .screen-reader-text').textContent(), /^\(1 item, \$\d+\.\d\d\)$/);

    const live = page.locator('#cart-live-region');
    assert.equal(await live.getAttribute('aria-live'), 'polite');
    await page.waitForFunction((m) => document.getElementById('cart-live-region')?.textContent === m, message);
    assert.ok(Date.now() - started >= 900, 'announced after about a second');

    // A second add of the same product: still one View cart link, count 2.
    await button.click();
    await page.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '2');
    assert.equal(await page.locator('a.added_to_cart.wc-forward').count(), 1);

    // The next page load reads the cookie and shows the count without React complaining.
    const cookies = await context.cookies();
    assert.equal(cookies.find((c) => c.name === 'woocommerce_items_in_cart')?.value, '1');
    await page.goto('/shop/');
    await page.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '2');
    assert.deepEqual(problems, []);
  });
});
