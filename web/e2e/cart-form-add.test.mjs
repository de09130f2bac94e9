// Add to cart from product forms without a reload: a simple product, a
// variation, and a sold-individually product whose second add is refused
// (the answer's product_url is loaded).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';

const SOCKS = '/product/everyday-crew-socks/';
const HOODIE = '/product/everyday-hoodie/';
const PRINT = '/product/limited-print-coastline-no-3/';

const shop = useShop();

const count = (page) => page.locator('.header-cart .cart-count').textContent();

test('simple product and a variation are added from their pages without navigation', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));

    await page.goto(SOCKS);
    const form = page.locator('.summary form.cart');
    await form.getByRole('button', { name: 'Increase quantity' }).waitFor({ state: 'visible' });
    await page.evaluate(() => ((window).__stay = 1));
    await form.getByRole('button', { name: 'Increase quantity' }).click();
    const qty = await form.getByRole('spinbutton', { name: 'Quantity' }).inputValue();
    const posted = page.waitForRequest((r) => r.url().includes('wc-ajax=add_to_cart') && r.method() === 'POST');
    const button = form.locator('button.single_add_to_cart_button');
    await button.click();
    const req = await posted;
    const body = new URLSearchParams(req.postData());
    assert.equal(body.get('quantity'), qty);
    assert.ok(Number(body.get('product_id')) > 0);
    await page.waitForFunction((q) => document.querySelector('.header-cart .cart-count')?.textContent === q, qty);
    assert.equal(await button.evaluate((el) => el.classList.contains('loading')), false);
    assert.equal(await page.evaluate(() => (window).__stay), 1, 'no navigation');
    await page.waitForFunction(
      () => document.getElementById('cart-live-region')?.textContent === '\u201cEveryday Crew Socks\u201d has been added to your cart.',
    );

    await page.goto(HOODIE);
    const vform = page.locator('form.variations_form');
    await vform.getByRole('radiogroup', { name: 'Color' }).waitFor();
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' }); // the swatches work once the page has hydrated
    await page.evaluate(() => ((window).__stay = 2));
    await vform.getByRole('radiogroup', { name: 'Color' }).getByRole('radio', { name: 'Black', exact: true }).click();
    await vform.getByRole('radiogroup', { name: 'Size' }).getByRole('radio', { name: /^M( \(Out of stock\))?$/ }).click();
    await vform.locator('.single_variation.is-shown').waitFor();
    const vid = await vform.locator('input.variation_id').inputValue();
    assert.notEqual(vid, '0');
    const vposted = page.waitForRequest((r) => r.url().includes('wc-ajax=add_to_cart') && r.method() === 'POST');
    await vform.locator('button.single_add_to_cart_button').click();
    assert.equal(new URLSearchParams((await vposted).postData()).get('product_id'), vid);
    await page.waitForFunction((n) => document.querySelector('.header-cart .cart-count')?.textContent === n, String(Number(qty) + 1));
    assert.equal(await page.evaluate(() => (window).__stay), 2, 'no navigation');
    // The mini cart opens after the add.
    await page.locator('.widget_shopping_cart_content').first().waitFor({ state: 'visible' });
    assert.deepEqual(problems, []);
  });
});

test('a sold-individually product added twice: the second answer sends the shop.browser to the product page', async () => {
  await shop.withPage(async (page) => {
    await page.goto(PRINT);
    const form = page.locator('.summary form.cart');
    const button = form.locator('button.single_add_to_cart_button');
    await page.waitForFunction(() => document.getElementById('cart-live-region'));
    await page.evaluate(() => ((window).__stay = 1));
    await button.click();
    await page.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '1');
    assert.equal(await page.evaluate(() => (window).__stay), 1);
    const nav = page.waitForEvent('load');
    await button.click();
    await nav;
    assert.equal(new URL(page.url()).pathname, PRINT);
    assert.equal(await page.evaluate(() => (window).__stay), undefined, 'the page was loaded again');
  });
});
